import Dispatch
import Foundation

extension OperationQueue: Scheduler {
  /// The scheduler time type used by the operation queue: a `Date`.
  ///
  /// A type of its own, distinct from `RunLoop.SchedulerTimeType`; ``DateSchedulerTime``
  /// documents its arithmetic, its ``DateSchedulerTime/Stride`` and its coding.
  public typealias SchedulerTimeType = DateSchedulerTime<OperationQueue>

  /// Options that affect the operation of the operation queue scheduler; the queue takes
  /// none.
  public struct SchedulerOptions: Sendable {}

  /// The operation queue's definition of the current moment in time: the current date.
  public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride { 0.0 }

  /// Adds the action to the queue as an operation.
  ///
  ///     let queue = OperationQueue()
  ///     queue.schedule { print("ran") }
  ///     queue.waitUntilAllOperationsAreFinished()
  ///     // Prints "ran"
  ///
  /// - Parameters:
  ///   - options: Unused.
  ///   - action: The action to perform.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let work = UncheckedSendableAction(action)
    addOperation { work.action() }
  }

  /// Adds the action to the queue once `date` has passed; the wait happens on a Dispatch
  /// timer, not on the queue.
  ///
  /// - Parameters:
  ///   - date: The earliest time to run the action.
  ///   - tolerance: The allowed lateness.
  ///   - options: Unused.
  ///   - action: The action to perform.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    let work = UncheckedSendableAction(action)
    let queue = LockedBox(self)
    DispatchQueue.global().asyncAfter(
      wallDeadline: .now() + max(date.date.timeIntervalSinceNow, 0)
    ) { queue.withLock { $0 }.addOperation { work.action() } }
  }

  /// Adds the action to the queue at `date` and then every `interval`, until cancelled.
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: The allowed lateness.
  ///   - options: Unused.
  ///   - action: The action to perform.
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let work = UncheckedSendableAction(action)
    let queue = LockedBox(self)
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.setEventHandler { queue.withLock { $0 }.addOperation { work.action() } }
    timer.schedule(
      wallDeadline: .now() + max(date.date.timeIntervalSinceNow, 0),
      repeating: max(interval.timeInterval, 1e-9),
      leeway: .nanoseconds(Int(tolerance.timeInterval * 1e9)))
    timer.resume()
    let source = UncheckedSendableAction { timer.cancel() }
    return AnyCancellable { source.action() }
  }
}
