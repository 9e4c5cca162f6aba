import Foundation

extension RunLoop: Scheduler {
  /// The scheduler time type used by the run loop: a `Date`.
  ///
  /// A type of its own, distinct from `OperationQueue.SchedulerTimeType`; ``DateSchedulerTime``
  /// documents its arithmetic, its ``DateSchedulerTime/Stride`` and its coding.
  public typealias SchedulerTimeType = DateSchedulerTime<RunLoop>

  /// Options that affect the operation of the run loop scheduler; the run loop takes
  /// none.
  public struct SchedulerOptions: Sendable {}

  /// The run loop's definition of the current moment in time: the current date.
  public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride { 0.0 }

  /// Performs the action on the run loop's thread the next time the run loop runs.
  ///
  ///     RunLoop.current.schedule { print("ran") }
  ///     RunLoop.current.run(until: Date())
  ///     // Prints "ran"
  ///
  /// - Parameters:
  ///   - options: Unused.
  ///   - action: The action to perform.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let work = UncheckedSendableAction(action)
    perform { work.action() }
  }

  /// Performs the action on the run loop's thread once `date` has passed, through a
  /// one-shot `Timer` in the default mode. The action is released once it has run.
  ///
  /// - Parameters:
  ///   - date: The earliest time to run the action.
  ///   - tolerance: The timer's tolerance.
  ///   - options: Unused.
  ///   - action: The action to perform.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    let work = TimerAction(action)
    let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.runOnce() }
    timer.tolerance = tolerance.timeInterval
    add(timer, forMode: .default)
  }

  /// Performs the action on the run loop's thread at `date` and then every `interval`,
  /// through a repeating `Timer` in the default mode, until cancelled. Cancelling also
  /// releases the action.
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: The timer's tolerance.
  ///   - options: Unused.
  ///   - action: The action to perform.
  /// - Returns: A cancellable that invalidates the timer.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let work = TimerAction(action)
    let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in
      work.run()
    }
    timer.tolerance = tolerance.timeInterval
    add(timer, forMode: .default)
    return TimerInvalidation(timer, action: work)
  }
}
