import ReactiveCore

extension Collection where Element: Publisher {
  /// Combines the latest values of every publisher in the collection into an array, once
  /// each has sent a value, and again whenever any sends another.
  ///
  ///     let totals = [price, tax, shipping].combineLatest().map { $0.reduce(0, +) }
  ///
  /// An empty collection finishes at once.
  ///
  /// - Returns: A publisher of arrays, one element per publisher, in collection order.
  public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
    guard let first else { return Empty().eraseToAnyPublisher() }
    return dropFirst().reduce(first.map { [$0] }.eraseToAnyPublisher()) { combined, next in
      combined.combineLatest(next) { $0 + [$1] }.eraseToAnyPublisher()
    }
  }
}
