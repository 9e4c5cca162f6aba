import ReactiveCore

extension Publisher where Output: Collection {
  /// Transforms every element of each collection value, as CombineExt's `mapMany(_:)`
  /// does.
  ///
  ///     numbers.mapMany(String.init)  // [1, 2] becomes ["1", "2"]
  ///
  /// - Parameter transform: Applied to each element of each value.
  /// - Returns: A publisher of arrays of the transformed elements.
  public func mapMany<Result>(_ transform: @escaping (Output.Element) -> Result)
    -> Publishers.Map<Self, [Result]>
  {
    map { $0.map(transform) }
  }

  /// Keeps the elements of each collection value that satisfy a predicate, as CombineExt's
  /// `filterMany(_:)` does.
  ///
  ///     numbers.filterMany { $0.isMultiple(of: 2) }  // [10, 1, 2] becomes [10, 2]
  ///
  /// - Parameter isIncluded: Whether an element stays.
  /// - Returns: A publisher of arrays of the elements kept.
  public func filterMany(_ isIncluded: @escaping (Output.Element) -> Bool)
    -> AnyPublisher<[Output.Element], Failure>
  {
    map { $0.filter(isIncluded) }.eraseToAnyPublisher()
  }
}
