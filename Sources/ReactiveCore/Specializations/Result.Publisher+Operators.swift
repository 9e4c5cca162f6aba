// Combine answers operators on `Result.Publisher` with another result publisher,
// computed at once; these overloads keep that shape.

extension Result.Publisher {
  /// Transforms the success value.
  public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
    .init(result.map(transform))
  }

  /// Transforms the success value with a throwing closure.
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    .init(
      result.mapError { $0 as any Error }.flatMap { value in
        Result<T, any Error> { try transform(value) }
      })
  }

  /// Transforms the failure.
  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
    .init(result.mapError(transform))
  }

  /// Replaces a failure with `output`.
  public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
    .init(.success((try? result.get()) ?? output))
  }

  /// A single value has no duplicates: returns `self`.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  { self }

  /// The scan of one value.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Failure>.Publisher
  {
    .init(result.map { nextPartialResult(initialResult, $0) })
  }

  /// The reduce of one value: its only partial result, so the scan of it.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Failure>.Publisher
  { scan(initialResult, nextPartialResult) }

  /// The scan of one value with a throwing closure.
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    tryMap { try nextPartialResult(initialResult, $0) }
  }

  /// The reduce of one value with a throwing closure: the scan of it, as in `reduce(_:_:)`.
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher { tryScan(initialResult, nextPartialResult) }

  /// Collects the value into a one-element array.
  public func collect() -> Result<[Output], Failure>.Publisher { .init(result.map { [$0] }) }

  /// The number of values: one.
  public func count() -> Result<Int, Failure>.Publisher { .init(result.map { _ in 1 }) }

  /// The first value is the value.
  public func first() -> Result<Output, Failure>.Publisher { self }

  /// The last value is the value.
  public func last() -> Result<Output, Failure>.Publisher { self }

  /// Whether the value satisfies the predicate.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    .init(result.map(predicate))
  }

  /// Whether the value satisfies the predicate: for one value, the same answer as
  /// `allSatisfy(_:)`.
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    allSatisfy(predicate)
  }

  /// The value is both minimum and maximum.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  { self }

  /// The value is both minimum and maximum.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  { self }
}

extension Result.Publisher where Failure == Never {
  /// Changes the failure type of the publisher.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    .init(.success(result.get()))
  }
}

extension Result.Publisher where Output: Equatable {
  /// Whether the value equals `output`.
  public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
    .init(result.map { $0 == output })
  }

  /// A single value has no duplicates: returns `self`.
  public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
  /// The value is the minimum.
  public func min() -> Result<Output, Failure>.Publisher { self }

  /// The value is the maximum.
  public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
  /// Whether the value satisfies a throwing predicate, or the predicate's error.
  public func tryAllSatisfy(
    _ predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    .init(tryMapResult(predicate))
  }

  /// Whether the value satisfies a throwing predicate, or the predicate's error: for one
  /// value, the same answer as `tryAllSatisfy(_:)`.
  public func tryContains(
    where predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher { tryAllSatisfy(predicate) }

  /// The value is the minimum; as in Combine, the ordering is still asked once (comparing
  /// the value with itself), so its error is published.
  public func tryMin(
    by areInIncreasingOrder: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    comparedWithItself(by: areInIncreasingOrder)
  }

  /// The value is the maximum; the ordering is still asked once, so for one value the
  /// answer is `tryMin(by:)`'s.
  public func tryMax(
    by areInIncreasingOrder: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher { tryMin(by: areInIncreasingOrder) }

  /// Publishes no value, only the completion or the failure.
  public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

  /// A single value has no duplicates; the predicate is still asked once (comparing the
  /// value with itself), so its error is published.
  public func tryRemoveDuplicates(
    by predicate: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    comparedWithItself(by: predicate)
  }

  /// A result publisher is never empty: returns `self`.
  public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

  /// Retrying gives the same result: returns `self`.
  public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

  /// The value, after asking `relation` once to compare it with itself: Combine still
  /// runs the closure of an operator that compares values, so its error is published.
  private func comparedWithItself(
    by relation: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    .init(
      tryMapResult { value in
        _ = try relation(value, value)
        return value
      })
  }

  /// The result with the value transformed by a throwing closure; either error as
  /// `any Error`.
  private func tryMapResult<T>(_ transform: (Output) throws -> T) -> Result<T, any Error> {
    switch result {
    case .success(let value): Result<T, any Error> { try transform(value) }
    case .failure(let failure): .failure(failure)
    }
  }
}
