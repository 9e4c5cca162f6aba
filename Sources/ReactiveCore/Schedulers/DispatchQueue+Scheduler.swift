import Dispatch

extension DispatchQueue: Scheduler {
  /// The scheduler time type used by the dispatch queue.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The dispatch time represented by this type.
    public var dispatchTime: DispatchTime

    /// Creates a dispatch queue time type instance.
    ///
    /// - Parameter time: The dispatch time to represent.
    public init(_ time: DispatchTime) { dispatchTime = time }

    /// The distance to another dispatch queue time.
    public func distance(to other: SchedulerTimeType) -> SchedulerStride {
      let start = Int64(bitPattern: dispatchTime.uptimeNanoseconds)
      let end = Int64(bitPattern: other.dispatchTime.uptimeNanoseconds)
      return .nanoseconds(Int(end - start))
    }

    /// Returns a dispatch queue scheduler time calculated by advancing this instance's
    /// time by the given interval.
    public func advanced(by n: SchedulerStride) -> SchedulerTimeType {
      SchedulerTimeType(dispatchTime + .nanoseconds(n.magnitude))
    }

    /// Creates a time from a decoder, as Combine encodes it: the uptime in nanoseconds,
    /// as one value.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
    }

    /// Encodes the time as its uptime in nanoseconds, as one value.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(dispatchTime.uptimeNanoseconds)
    }

    /// Hashes the dispatch time.
    public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }

    /// Whether two times are equal.
    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime == rhs.dispatchTime
    }
  }

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
  public var minimumTolerance: SchedulerStride { .zero }

  /// Performs the action asynchronously on the queue.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let work = UncheckedSendableAction(action)
    async(
      group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []
    ) { work.action() }
  }

  /// Performs the action on the queue once `date` has passed.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerStride, options: SchedulerOptions?,
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
    after date: SchedulerTimeType, interval: SchedulerStride, tolerance: SchedulerStride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let work = UncheckedSendableAction(action)
    let timer = DispatchSource.makeTimerSource(queue: self)
    timer.setEventHandler { work.action() }
    timer.schedule(
      deadline: date.dispatchTime, repeating: .nanoseconds(max(interval.magnitude, 1)),
      leeway: .nanoseconds(tolerance.magnitude))
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
