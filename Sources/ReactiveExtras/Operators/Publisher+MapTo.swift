import ReactiveCore

extension Publisher {
  /// Replaces each upstream value with a constant, as CombineExt's `mapToValue(_:)` does.
  ///
  ///     taps.mapToValue(1).scan(0, +).sink { print($0) }
  ///
  /// - Parameter value: The constant each upstream value becomes.
  /// - Returns: A publisher of `value`, once per upstream value.
  public func mapToValue<Value>(_ value: Value) -> Publishers.Map<Self, Value> {
    map { _ in value }
  }

  /// Replaces each upstream value with `()`, as CombineExt's `mapToVoid()` does.
  ///
  /// - Returns: A publisher of `Void`, once per upstream value.
  public func mapToVoid() -> Publishers.Map<Self, Void> {
    map { _ in () }
  }

  /// Turns values and the failure into `Result`s that never fail, as CombineExt's
  /// `mapToResult()` does: each value arrives as `.success`, a failure as one `.failure`
  /// followed by the end.
  ///
  /// - Returns: A publisher of results that never fails.
  public func mapToResult() -> AnyPublisher<Result<Output, Failure>, Never> {
    map { Result<Output, Failure>.success($0) }
      .catch { Just(Result<Output, Failure>.failure($0)) }
      .eraseToAnyPublisher()
  }
}
