// Combine answers operators on `Just` with another simple publisher, computed at once,
// instead of an operator chain; these overloads keep that shape.

extension Just {
  /// Transforms the value, returning another `Just`.
  public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

  /// Transforms the value with a throwing closure, returning a `Result` publisher.
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    .init(Result { try transform(output) })
  }

  /// Publishes the transformed value if it is not `nil`.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    .init(transform(output))
  }

  /// Publishes the value if it satisfies the predicate.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    .init(isIncluded(output) ? output : nil)
  }

  /// A single value has no duplicates: returns `self`.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

  /// The one-element scan.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Never>.Publisher
  {
    .init(nextPartialResult(initialResult, output))
  }

  /// The one-element reduce: its only partial result, so the scan of it.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Never>.Publisher
  { scan(initialResult, nextPartialResult) }

  /// Collects the value into a one-element array.
  public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

  /// The number of values: one.
  public func count() -> Just<Int> { Just<Int>(1) }

  /// The first value is the value.
  public func first() -> Just<Output> { self }

  /// The last value is the value.
  public func last() -> Just<Output> { self }

  /// The value if it satisfies the predicate.
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// The value if it satisfies the predicate.
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// Drops the value if `count` is positive.
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    .init(AtMostOneValue.droppingFirst(count, of: output))
  }

  /// Drops the value if it satisfies the predicate.
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    .init(predicate(output) ? nil : output)
  }

  /// Keeps the value if `maxLength` is positive.
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    .init(AtMostOneValue.prefix(maxLength, of: output))
  }

  /// Keeps the value if it satisfies the predicate.
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// The value if `index` is zero.
  public func output(at index: Int) -> Optional<Output>.Publisher {
    .init(AtMostOneValue.output(at: index, of: output))
  }

  /// Ignores the value and finishes.
  public func ignoreOutput() -> Empty<Output, Never> { Empty() }

  /// A `Just` is never empty: returns `self`.
  public func replaceEmpty(with output: Output) -> Just<Output> { self }

  /// A `Just` never fails: returns `self`.
  public func replaceError(with output: Output) -> Just<Output> { self }

  /// A `Just` never fails: returns `self`.
  public func retry(_ retries: Int) -> Just<Output> { self }

  /// Changes the failure type of the publisher.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    .init(output)
  }

  /// Changes the failure type of the publisher.
  public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
    .init(output)
  }

  /// Whether the value satisfies the predicate.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Whether the value satisfies the predicate: for one value, the same answer as
  /// `allSatisfy(_:)`.
  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
    allSatisfy(predicate)
  }

  /// The value is both minimum and maximum.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// The value is both minimum and maximum.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }
}

extension Just where Output: Equatable {
  /// Whether the value equals `output`.
  public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

  /// A single value has no duplicates: returns `self`.
  public func removeDuplicates() -> Just<Output> { self }
}

extension Just where Output: Comparable {
  /// The value is the minimum.
  public func min() -> Just<Output> { self }

  /// The value is the maximum.
  public func max() -> Just<Output> { self }
}

extension Just {
  /// Whether the value satisfies a throwing predicate, or the predicate's error.
  public func tryAllSatisfy(
    _ predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    .init(Result { try predicate(output) })
  }

  /// Whether the value satisfies a throwing predicate, or the predicate's error: for one
  /// value, the same answer as `tryAllSatisfy(_:)`.
  public func tryContains(
    where predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher { tryAllSatisfy(predicate) }

  /// The value if `range` starts at zero, as Combine answers (Combine publishes the
  /// value even for an empty range starting at zero).
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    let range = range.relative(to: 0..<Int.max)
    return .init(range.lowerBound == 0 ? output : nil)
  }

  /// A single value has no duplicates; the predicate is still asked once (comparing the
  /// value with itself), so its error is published.
  public func tryRemoveDuplicates(
    by predicate: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    .init(
      Result {
        _ = try predicate(output, output)
        return output
      })
  }

  /// The reduce of one value with a throwing closure: the scan of it, as in
  /// `reduce(_:_:)`.
  public func tryReduce<Accumulator>(
    _ initialResult: Accumulator,
    _ nextPartialResult: (Accumulator, Output) throws -> Accumulator
  ) -> Result<Accumulator, any Error>.Publisher { tryScan(initialResult, nextPartialResult) }

  /// The scan of one value with a throwing closure.
  public func tryScan<ElementOfResult>(
    _ initialResult: ElementOfResult,
    _ nextPartialResult: (ElementOfResult, Output) throws -> ElementOfResult
  ) -> Result<ElementOfResult, any Error>.Publisher {
    .init(Result { try nextPartialResult(initialResult, output) })
  }

  /// Publishes `elements`, then the value.
  public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    prepend(elements)
  }

  /// Publishes `elements`, then the value.
  public func prepend<Elements: Sequence>(
    _ elements: Elements
  ) -> Publishers.Sequence<[Output], Never> where Output == Elements.Element {
    .init(sequence: elements + [output])
  }

  /// Publishes the value, then `elements`.
  public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    append(elements)
  }

  /// Publishes the value, then `elements`.
  public func append<Elements: Sequence>(
    _ elements: Elements
  ) -> Publishers.Sequence<[Output], Never> where Output == Elements.Element {
    .init(sequence: [output] + elements)
  }
}
