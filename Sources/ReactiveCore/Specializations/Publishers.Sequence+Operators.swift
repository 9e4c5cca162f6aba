// Combine answers operators on `Publishers.Sequence` by transforming the sequence
// itself, so the result is still a sequence publisher (or a single result); these
// overloads keep that shape.

extension Publishers.Sequence {
  /// Transforms every element, returning a sequence publisher of the results.
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    .init(sequence: sequence.map(transform))
  }

  /// Keeps the non-`nil` results of `transform`.
  public func compactMap<T>(_ transform: (Elements.Element) -> T?)
    -> Publishers.Sequence<[T], Failure>
  {
    .init(sequence: sequence.compactMap(transform))
  }

  /// Keeps the elements that satisfy the predicate.
  public func filter(_ isIncluded: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    .init(sequence: sequence.filter(isIncluded))
  }

  /// The running results of `nextPartialResult`.
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Publishers.Sequence<[T], Failure> {
    var accumulator = initialResult
    return .init(
      sequence: sequence.map {
        accumulator = nextPartialResult(accumulator, $0)
        return accumulator
      })
  }

  /// The final result of `nextPartialResult` over every element.
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Result<T, Failure>.Publisher {
    .init(.success(sequence.reduce(initialResult, nextPartialResult)))
  }

  /// Every element in one array.
  public func collect() -> Result<[Elements.Element], Failure>.Publisher {
    .init(.success(Array(sequence)))
  }

  /// The number of elements.
  public func count() -> Result<Int, Failure>.Publisher {
    .init(.success(sequence.reduce(0) { count, _ in count + 1 }))
  }

  /// Whether every element satisfies the predicate.
  public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher
  {
    .init(.success(sequence.allSatisfy(predicate)))
  }

  /// Whether some element satisfies the predicate.
  public func contains(where predicate: (Elements.Element) -> Bool)
    -> Result<Bool, Failure>.Publisher
  {
    .init(.success(sequence.contains(where: predicate)))
  }

  /// Drops the first `count` elements.
  public func dropFirst(_ count: Int = 1)
    -> Publishers.Sequence<DropFirstSequence<Elements>, Failure>
  {
    .init(sequence: sequence.dropFirst(count))
  }

  /// Drops elements while the predicate holds.
  public func drop(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
    .init(sequence: sequence.drop(while: predicate))
  }

  /// Keeps at most `maxLength` elements.
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    .init(sequence: sequence.prefix(maxLength))
  }

  /// Keeps elements while the predicate holds.
  public func prefix(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    .init(sequence: sequence.prefix(while: predicate))
  }

  /// Publishes no elements, then finishes.
  public func ignoreOutput() -> Empty<Elements.Element, Failure> { Empty() }

  /// Changes the failure type of the publisher.
  public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
    .init(sequence: sequence)
  }

  /// The greatest element by `areInIncreasingOrder`, if any.
  public func max(
    by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
  ) -> Optional<Elements.Element>.Publisher {
    .init(sequence.max(by: areInIncreasingOrder))
  }

  /// The least element by `areInIncreasingOrder`, if any.
  public func min(
    by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
  ) -> Optional<Elements.Element>.Publisher {
    .init(sequence.min(by: areInIncreasingOrder))
  }
}

extension Publishers.Sequence where Failure == Never {
  /// The first element, if any.
  public func first() -> Optional<Elements.Element>.Publisher {
    .init(sequence.first { _ in true })
  }

  /// The first element satisfying the predicate, if any.
  public func first(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    .init(sequence.first(where: predicate))
  }

  /// The element at `index`, if the sequence is that long.
  public func output(at index: Int) -> Optional<Elements.Element>.Publisher {
    .init(sequence.dropFirst(index).first { _ in true })
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Drops elements equal to the one before.
  public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
    var last: Elements.Element?
    return .init(
      sequence: sequence.filter { element in
        defer { last = element }
        return last != element
      })
  }

  /// Whether some element equals `output`.
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    .init(.success(sequence.contains(output)))
  }
}

extension Publishers.Sequence where Elements.Element: Comparable {
  /// The least element, if any.
  public func min() -> Optional<Elements.Element>.Publisher { .init(sequence.min()) }

  /// The greatest element, if any.
  public func max() -> Optional<Elements.Element>.Publisher { .init(sequence.max()) }
}
