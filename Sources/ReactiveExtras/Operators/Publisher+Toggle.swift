import ReactiveCore

extension Publisher where Output == Bool {
  /// Negates each Boolean value, as CombineExt's `toggle()` does.
  ///
  /// - Returns: A publisher of the negated values.
  public func toggle() -> Publishers.Map<Self, Bool> {
    map(!)
  }
}
