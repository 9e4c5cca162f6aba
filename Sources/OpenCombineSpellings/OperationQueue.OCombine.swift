import Foundation
import ReactiveCore

extension OperationQueue {
  /// OpenCombine's scheduler wrapper for an operation queue: `OperationQueue.OCombine(queue)`
  /// and `queue.ocombine`.
  ///
  /// In ReactiveCore the operation queue is itself a scheduler, as in Combine; the wrapper
  /// forwards every call to it and shares its time and options types, so
  /// `OperationQueue.OCombine.SchedulerTimeType` *is* `OperationQueue.SchedulerTimeType`.
  ///
  ///     let queue = OperationQueue()
  ///     let cancellable = Just(1).receive(on: queue.ocombine).sink { print($0) }
  ///     queue.waitUntilAllOperationsAreFinished()
  ///     // Prints "1"
  ///
  /// - Note: Thread-safe, as the operation queue is.
  public struct OCombine: Scheduler {
    /// The operation queue this scheduler schedules on.
    public let queue: OperationQueue

    /// Wraps `queue` as a scheduler.
    ///
    /// - Parameter queue: The operation queue to schedule on.
    public init(_ queue: OperationQueue) { self.queue = queue }

    /// The operation queue's time type: a `Date`.
    public typealias SchedulerTimeType = OperationQueue.SchedulerTimeType
    /// The operation queue's options: none.
    public typealias SchedulerOptions = OperationQueue.SchedulerOptions

    /// The operation queue's definition of the current moment in time: the current date.
    public var now: SchedulerTimeType { queue.now }

    /// The minimum tolerance the operation queue allows.
    public var minimumTolerance: SchedulerTimeType.Stride { queue.minimumTolerance }

    /// Adds the action to the operation queue.
    ///
    /// - Parameters:
    ///   - options: Unused.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      queue.schedule(options: options, action)
    }

    /// Adds the action to the operation queue once `date` has passed.
    ///
    /// - Parameters:
    ///   - date: The earliest time to run the action.
    ///   - tolerance: How late the action may run.
    ///   - options: Unused.
    ///   - action: The action to perform.
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) {
      queue.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    /// Adds the action to the operation queue at `date` and then every `interval`, until
    /// cancelled.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: Unused.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that stops the repetition.
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) -> any Cancellable {
      queue.schedule(
        after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
  }

  /// The operation queue as OpenCombine's scheduler wrapper: `queue.ocombine` is
  /// `OperationQueue.OCombine(queue)`.
  public var ocombine: OCombine { OCombine(self) }
}
