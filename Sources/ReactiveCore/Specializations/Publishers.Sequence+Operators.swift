// Combine answers operators on `Publishers.Sequence` by transforming the sequence
// itself, so the result is still a sequence publisher (or a single result); these
// overloads keep that shape, with Combine's constraints and return types.

extension Publishers.Sequence where Failure == Never {
  /// Publishes the smallest element by the given ordering, or nothing if the sequence is
  /// empty.
  public func min(
    by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
  ) -> Optional<Elements.Element>.Publisher {
    .init(sequence.min(by: areInIncreasingOrder))
  }

  /// Publishes the largest element by the given ordering, or nothing if the sequence is
  /// empty.
  public func max(
    by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
  ) -> Optional<Elements.Element>.Publisher {
    .init(sequence.max(by: areInIncreasingOrder))
  }

  /// Publishes the first element that satisfies the predicate, if any.
  public func first(
    where predicate: (Elements.Element) -> Bool
  ) -> Optional<Elements.Element>.Publisher {
    .init(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence {
  /// Publishes whether every element satisfies the predicate.
  public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher
  {
    .init(sequence.allSatisfy(predicate))
  }

  /// Publishes whether every element satisfies a throwing predicate, or its error.
  public func tryAllSatisfy(
    _ predicate: (Elements.Element) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    .init(Result { try sequence.allSatisfy(predicate) })
  }

  /// Publishes every element in one array.
  public func collect() -> Result<[Elements.Element], Failure>.Publisher {
    .init(Array(sequence))
  }

  /// Publishes the non-`nil` results of `transform`.
  public func compactMap<ElementOfResult>(
    _ transform: (Elements.Element) -> ElementOfResult?
  ) -> Publishers.Sequence<[ElementOfResult], Failure> {
    .init(sequence: sequence.compactMap(transform))
  }

  /// Publishes whether any element satisfies the predicate.
  public func contains(
    where predicate: (Elements.Element) -> Bool
  ) -> Result<Bool, Failure>.Publisher {
    .init(sequence.contains(where: predicate))
  }

  /// Publishes whether any element satisfies a throwing predicate, or its error.
  public func tryContains(
    where predicate: (Elements.Element) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    .init(Result { try sequence.contains(where: predicate) })
  }

  /// Omits elements while the predicate holds.
  public func drop(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
    .init(sequence: sequence.drop(while: predicate))
  }

  /// Omits the first `count` elements.
  public func dropFirst(_ count: Int = 1)
    -> Publishers.Sequence<DropFirstSequence<Elements>, Failure>
  {
    .init(sequence: sequence.dropFirst(count))
  }

  /// Publishes the elements that satisfy the predicate.
  public func filter(
    _ isIncluded: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    .init(sequence: sequence.filter(isIncluded))
  }

  /// Publishes no elements, only the completion.
  public func ignoreOutput() -> Empty<Elements.Element, Failure> { Empty() }

  /// Publishes each element transformed.
  public func map<ElementOfResult>(
    _ transform: (Elements.Element) -> ElementOfResult
  ) -> Publishers.Sequence<[ElementOfResult], Failure> {
    .init(sequence: sequence.map(transform))
  }

  /// Publishes at most the first `maxLength` elements.
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    .init(sequence: sequence.prefix(maxLength))
  }

  /// Publishes elements while the predicate holds.
  public func prefix(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    .init(sequence: sequence.prefix(while: predicate))
  }

  /// Publishes the result of combining every element with `nextPartialResult`.
  public func reduce<Accumulator>(
    _ initialResult: Accumulator,
    _ nextPartialResult: @escaping (Accumulator, Elements.Element) -> Accumulator
  ) -> Result<Accumulator, Failure>.Publisher {
    .init(sequence.reduce(initialResult, nextPartialResult))
  }

  /// Publishes the result of combining every element with a throwing closure, or its
  /// error.
  public func tryReduce<Accumulator>(
    _ initialResult: Accumulator,
    _ nextPartialResult: @escaping (Accumulator, Elements.Element) throws -> Accumulator
  ) -> Result<Accumulator, any Error>.Publisher {
    .init(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }

  /// Publishes each element, with `nil` replaced by `output`.
  public func replaceNil<ElementOfResult>(
    with output: ElementOfResult
  ) -> Publishers.Sequence<[Elements.Element], Failure>
  where Elements.Element == ElementOfResult? {
    .init(sequence: sequence.map { $0 ?? output })
  }

  /// Publishes each running result of combining the elements.
  public func scan<ElementOfResult>(
    _ initialResult: ElementOfResult,
    _ nextPartialResult: @escaping (ElementOfResult, Elements.Element) -> ElementOfResult
  ) -> Publishers.Sequence<[ElementOfResult], Failure> {
    var accumulator = initialResult
    return .init(
      sequence: sequence.map {
        accumulator = nextPartialResult(accumulator, $0)
        return accumulator
      })
  }

  /// The same sequence, with another failure type.
  public func setFailureType<NewFailure: Error>(
    to error: NewFailure.Type
  ) -> Publishers.Sequence<Elements, NewFailure> {
    .init(sequence: sequence)
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Publishes the elements, omitting each one equal to the one before it.
  public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
    var previous: Elements.Element?
    var result: [Elements.Element] = []
    for element in sequence where element != previous {
      result.append(element)
      previous = element
    }
    return .init(sequence: result)
  }

  /// Publishes whether the sequence contains `output`.
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    .init(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// Publishes the smallest element, if any.
  public func min() -> Optional<Elements.Element>.Publisher { .init(sequence.min()) }

  /// Publishes the largest element, if any.
  public func max() -> Optional<Elements.Element>.Publisher { .init(sequence.max()) }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// Publishes the first element, if any.
  public func first() -> Optional<Elements.Element>.Publisher { .init(sequence.first) }

  /// Publishes the element at `index`, if the collection has one there.
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    .init(sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Publishes the number of elements.
  public func count() -> Result<Int, Failure>.Publisher { .init(sequence.count) }

  /// Publishes the elements in `range`.
  public func output(
    in range: Range<Elements.Index>
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    .init(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// Publishes the last element, if any.
  public func last() -> Optional<Elements.Element>.Publisher { .init(sequence.last) }

  /// Publishes the last element that satisfies the predicate, if any.
  public func last(
    where predicate: (Elements.Element) -> Bool
  ) -> Optional<Elements.Element>.Publisher {
    .init(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// Publishes the element at `index`, if the collection has one there.
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    .init(sequence.indices.contains(index) ? sequence[index] : nil)
  }

  /// Publishes the number of elements.
  public func count() -> Just<Int> { .init(sequence.count) }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// Publishes the elements in `range`.
  public func output(
    in range: Range<Elements.Index>
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    .init(sequence: Array(sequence[range]))
  }

  /// Publishes the number of elements.
  public func count() -> Result<Int, Failure>.Publisher { .init(sequence.count) }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// Publishes `elements`, then this sequence's elements.
  public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// Publishes `elements`, then this sequence's elements.
  public func prepend<OtherSequence: Sequence>(
    _ elements: OtherSequence
  ) -> Publishers.Sequence<Elements, Failure>
  where OtherSequence.Element == Elements.Element {
    var result = Elements()
    result.reserveCapacity(sequence.count + elements.underestimatedCount)
    result.append(contentsOf: elements)
    result.append(contentsOf: sequence)
    return .init(sequence: result)
  }

  /// Publishes `publisher`'s elements, then this sequence's elements.
  public func prepend(
    _ publisher: Publishers.Sequence<Elements, Failure>
  ) -> Publishers.Sequence<Elements, Failure> {
    var result = publisher.sequence
    result.append(contentsOf: sequence)
    return .init(sequence: result)
  }

  /// Publishes this sequence's elements, then `elements`.
  public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// Publishes this sequence's elements, then `elements`.
  public func append<OtherSequence: Sequence>(
    _ elements: OtherSequence
  ) -> Publishers.Sequence<Elements, Failure>
  where OtherSequence.Element == Elements.Element {
    var result = sequence
    result.append(contentsOf: elements)
    return .init(sequence: result)
  }

  /// Publishes this sequence's elements, then `publisher`'s.
  public func append(
    _ publisher: Publishers.Sequence<Elements, Failure>
  ) -> Publishers.Sequence<Elements, Failure> {
    append(publisher.sequence)
  }
}
