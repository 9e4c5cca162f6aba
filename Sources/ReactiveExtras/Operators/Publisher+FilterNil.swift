import ReactiveCore

extension Publisher {
  /// Drops `nil` values and unwraps the rest, as CombineExt's `filterNil()` does.
  ///
  ///     PassthroughSubject<Int?, Never>().filterNil()  // a publisher of Int
  ///
  /// - Returns: A publisher of the non-`nil` values.
  public func filterNil<Wrapped>() -> Publishers.CompactMap<Self, Wrapped>
  where Output == Wrapped? {
    compactMap { $0 }
  }
}
