import Dispatch
import ReactiveCore

extension DispatchQueue {
  /// OpenCombine's scheduler wrapper for a dispatch queue: `DispatchQueue.OCombine(.main)`
  /// and `queue.ocombine`.
  ///
  /// OpenCombine wraps a queue because, on Apple platforms, Combine makes `DispatchQueue`
  /// a scheduler too. In ReactiveCore the queue is itself a scheduler, as in Combine; the
  /// wrapper forwards every call to it and shares its time and options types, so
  /// `DispatchQueue.OCombine.SchedulerTimeType` *is* `DispatchQueue.SchedulerTimeType` and
  /// a stride written for one works with the other.
  ///
  ///     let cancellable = Just(1)
  ///         .receive(on: DispatchQueue.OCombine(.main))
  ///         .sink { print($0) }
  ///
  /// - Note: Thread-safe, as the queue is.
  public struct OCombine: Scheduler, Sendable {
    /// The queue this scheduler schedules on.
    public let queue: DispatchQueue

    /// Wraps `queue` as a scheduler.
    ///
    /// - Parameter queue: The queue to schedule on.
    public init(_ queue: DispatchQueue) { self.queue = queue }

    /// The queue's time type: a `DispatchTime`.
    public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    /// The queue's options: quality of service, work item flags and group.
    public typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    /// The queue's definition of the current moment in time.
    public var now: SchedulerTimeType { queue.now }

    /// The minimum tolerance the queue allows.
    public var minimumTolerance: SchedulerTimeType.Stride { queue.minimumTolerance }

    /// Performs the action asynchronously on the queue.
    ///
    /// - Parameters:
    ///   - options: The quality of service, flags and group to submit the action with.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      queue.schedule(options: options, action)
    }

    /// Performs the action on the queue once `date` has passed.
    ///
    /// - Parameters:
    ///   - date: The earliest time to run the action.
    ///   - tolerance: How late the action may run.
    ///   - options: The quality of service and flags to submit the action with.
    ///   - action: The action to perform.
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) {
      queue.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    /// Performs the action on the queue at `date`, then every `interval`, until
    /// cancelled.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: The quality of service and flags to submit the action with.
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

  /// The queue as OpenCombine's scheduler wrapper: `queue.ocombine` is
  /// `DispatchQueue.OCombine(queue)`.
  public var ocombine: OCombine { OCombine(self) }
}
