// Combine answers operators on `Optional.Publisher` with another optional publisher,
// computed at once; these overloads keep that shape.

extension Optional.Publisher {
  /// Transforms the value, if any.
  public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
    .init(output.map(transform))
  }

  /// Publishes the transformed value if there is one and it is not `nil`.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    .init(output.flatMap(transform))
  }

  /// Publishes the value if it satisfies the predicate.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    .init(output.flatMap { isIncluded($0) ? $0 : nil })
  }

  /// A single value has no duplicates: returns `self`.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher
  { self }

  /// The scan of at most one value.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Optional<T>.Publisher
  {
    .init(output.map { nextPartialResult(initialResult, $0) })
  }

  /// The reduce of at most one value, so the scan of it; like Combine, nothing when there
  /// is no value.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Optional<T>.Publisher
  { scan(initialResult, nextPartialResult) }

  /// Collects the value, if any, into an array.
  public func collect() -> Optional<[Output]>.Publisher { .init(output.map { [$0] } ?? []) }

  /// The number of values: one, or (as in Combine) nothing when there is no value.
  public func count() -> Optional<Int>.Publisher { .init(output.map { _ in 1 }) }

  /// The first value is the value.
  public func first() -> Optional<Output>.Publisher { self }

  /// The last value is the value.
  public func last() -> Optional<Output>.Publisher { self }

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
    .init(output.flatMap { predicate($0) ? nil : $0 })
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

  /// The value, or `output` when there is none.
  public func replaceEmpty(with output: Output) -> Just<Output> {
    Just(self.output ?? output)
  }

  /// Never fails: returns `self`.
  public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

  /// Never fails: returns `self`.
  public func retry(_ retries: Int) -> Optional<Output>.Publisher { self }

  /// Whether the value satisfies the predicate; nothing when there is no value, as in
  /// Combine.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    .init(output.map(predicate))
  }

  /// Whether the value satisfies the predicate: for at most one value, the same answer as
  /// `allSatisfy(_:)`.
  public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    allSatisfy(predicate)
  }

  /// The value is both minimum and maximum.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// The value is both minimum and maximum.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }
}

extension Optional.Publisher where Output: Equatable {
  /// Whether the value equals `output`.
  public func contains(_ output: Output) -> Optional<Bool>.Publisher {
    .init(self.output.map { $0 == output })
  }

  /// A single value has no duplicates: returns `self`.
  public func removeDuplicates() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Comparable {
  /// The value is the minimum.
  public func min() -> Optional<Output>.Publisher { self }

  /// The value is the maximum.
  public func max() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher {
  /// The value if `range` starts at zero and is not empty, as Combine answers.
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    let range = range.relative(to: 0..<Int.max)
    precondition(range.lowerBound >= 0, "lowerBound must not be negative")
    // Combine's specialisation traps on an upper bound this close to `Int.max` (OpenCombine
    // records the same), so code that relies on it behaves alike here.
    precondition(range.upperBound < .max - 1, "upperBound must be less than Int.max - 1")
    return .init(output.flatMap { range.lowerBound == 0 && range.upperBound != 0 ? $0 : nil })
  }
}
