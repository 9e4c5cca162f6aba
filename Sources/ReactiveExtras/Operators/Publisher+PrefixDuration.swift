import ReactiveCore

extension Publisher {
  /// Passes values on for a while, then finishes, as CombineExt's
  /// `prefix(duration:tolerance:on:options:)` does.
  ///
  ///     searchResults.prefix(duration: .seconds(5), on: DispatchQueue.main)
  ///
  /// - Parameters:
  ///   - duration: How long after subscription values pass.
  ///   - tolerance: The allowed timing variance of the deadline.
  ///   - scheduler: The scheduler that measures the duration.
  ///   - options: Options passed to the scheduler.
  /// - Returns: A publisher of the values sent within `duration`.
  public func prefix<S: Scheduler>(
    duration: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> AnyPublisher<Output, Failure> {
    // One delayed value as the deadline (CombineExt uses a repeating timer, which keeps
    // ticking after the deadline, since prefix(untilOutputFrom:) lets go of its trigger
    // without cancelling it, as Combine's does).
    prefix(
      untilOutputFrom: Just(()).delay(
        for: duration, tolerance: tolerance, scheduler: scheduler, options: options)
    )
    .eraseToAnyPublisher()
  }
}
