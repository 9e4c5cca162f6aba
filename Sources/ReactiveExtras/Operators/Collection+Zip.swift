import ReactiveCore

extension Collection where Element: Publisher {
  /// Pairs up the values of every publisher in the collection into arrays: the first of
  /// each, then the second of each, and so on.
  ///
  ///     let rows = [names, ages, cities].zip()
  ///
  /// An empty collection finishes at once.
  ///
  /// - Returns: A publisher of arrays, one element per publisher, in collection order.
  public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
    guard let first else { return Empty().eraseToAnyPublisher() }
    return dropFirst().reduce(first.map { [$0] }.eraseToAnyPublisher()) { zipped, next in
      zipped.zip(next) { $0 + [$1] }.eraseToAnyPublisher()
    }
  }
}
