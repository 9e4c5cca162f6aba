/// A scheduler for performing synchronous actions.
///
/// You can only use this scheduler for immediate actions. If you attempt to schedule
/// actions after a specific date, this scheduler ignores the date and performs them
/// immediately.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// A type that defines options accepted by the immediate scheduler.
  public typealias SchedulerOptions = Never

  /// The shared instance of the immediate scheduler.
  public static let shared = ImmediateScheduler()

  /// The immediate scheduler's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType() }

  /// The minimum tolerance allowed by the immediate scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Performs the action at once.
  public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }

  /// Performs the action at once, ignoring the date.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Performs the action once, at once, ignoring the date and the interval.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return Subscriptions.empty
  }
}
