extension Scheduler {
  /// Schedules `action` every `interval`, first `interval` from now, with the scheduler's
  /// minimum tolerance: the timer of `debounce`, `timeout` and `collect(byTime:)`.
  ///
  /// Repeating, as Combine's are, because only repeating work hands back a `Cancellable`
  /// that stops it; each owner cancels it once it has fired or is no longer wanted. The
  /// clock is read before the tolerance, in the order a recording scheduler saw before
  /// this was shared.
  ///
  /// - Returns: What cancels the timer.
  func scheduleRepeating(
    every interval: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(
      after: now.advanced(by: interval), interval: interval, tolerance: minimumTolerance,
      options: options, action)
  }
}
