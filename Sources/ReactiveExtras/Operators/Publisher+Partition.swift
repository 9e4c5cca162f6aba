import ReactiveCore

extension Publisher {
  /// One side of ``partition(_:)``.
  public typealias Partition = AnyPublisher<Output, Failure>

  /// Splits the values into those that satisfy a predicate and those that do not, as
  /// CombineExt's `partition(_:)` does. The upstream is shared (`share()`) between the two.
  ///
  ///     let (evens, odds) = numbers.partition { $0.isMultiple(of: 2) }
  ///
  /// - Parameter predicate: Decides which side a value goes to.
  /// - Returns: The publisher of the matching values and that of the others.
  public func partition(_ predicate: @escaping (Output) -> Bool) -> (
    matches: Partition, nonMatches: Partition
  ) {
    let source = map { ($0, predicate($0)) }.share()
    let matches = source.compactMap { $0.1 ? $0.0 : nil }.eraseToAnyPublisher()
    let nonMatches = source.compactMap { $0.1 ? nil : $0.0 }.eraseToAnyPublisher()
    return (matches, nonMatches)
  }
}
