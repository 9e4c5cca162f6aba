import Dispatch

extension DispatchQueue: Scheduler {
  /// Options that affect the operation of the dispatch queue scheduler.
  ///
  /// Unchecked `Sendable`: every field is an immutable Dispatch value or a thread-safe
  /// group, though Dispatch does not mark them so.
  public struct SchedulerOptions: @unchecked Sendable {
    /// The dispatch queue quality of service.
    public var qos: DispatchQoS
    /// The dispatch queue work item flags.
    public var flags: DispatchWorkItemFlags
    /// The dispatch group, if any, that you want to add scheduled actions to.
    public var group: DispatchGroup?

    /// Creates dispatch queue scheduler options.
    public init(
      qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
      group: DispatchGroup? = nil
    ) {
      self.qos = qos
      self.flags = flags
      self.group = group
    }
  }

  /// The dispatch queue's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

  /// The minimum tolerance allowed by the scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

  /// Performs the action asynchronously on the queue.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    // The action itself, marked sendable, not wrapped in a second closure: one allocation
    // less on every value `receive(on:)` hops (see `UncheckedSendableAction` for why the
    // mark is sound).
    let work = unsafeBitCast(action, to: (@Sendable () -> Void).self)
    guard let options else { return async(execute: work) }
    async(group: options.group, qos: options.qos, flags: options.flags, execute: work)
  }

  /// Performs the action on the queue once `date` has passed.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    let work = UncheckedSendableAction(action)
    asyncAfter(
      deadline: date.dispatchTime, qos: options?.qos ?? .unspecified,
      flags: options?.flags ?? []
    ) { work.action() }
  }

  /// Performs the action on the queue at `date`, then every `interval`, until cancelled.
  ///
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let work = UncheckedSendableAction(action)
    let timer = DispatchSource.makeTimerSource(queue: self)
    timer.setEventHandler { work.action() }
    timer.schedule(
      deadline: date.dispatchTime, repeating: .nanoseconds(Swift.max(interval.magnitude, 1)),
      leeway: .nanoseconds(Swift.max(tolerance.magnitude, 0)))
    timer.resume()
    let source = UncheckedSendableAction { timer.cancel() }
    return AnyCancellable { source.action() }
  }
}

/// Carries a closure that Combine's signatures do not mark `@Sendable` across a
/// dispatch boundary. Schedulers run each action once, on the queue the caller chose,
/// which is the contract Combine's `Scheduler` has always had.
struct UncheckedSendableAction: @unchecked Sendable {
  let action: () -> Void
  init(_ action: @escaping () -> Void) { self.action = action }
}
