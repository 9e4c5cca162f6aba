import ReactiveCore

extension Scheduler {
  /// Returns a publisher that repeatedly emits this scheduler's time on the given interval,
  /// driven by the scheduler itself rather than by a run loop.
  ///
  /// `Timer.publish(every:on:in:)` ticks only while its `RunLoop` runs, which a Linux
  /// command-line program or server usually does not (under `dispatchMain()` it never
  /// ticks, and nothing says so). This timer runs on any `Scheduler`: a
  /// `DispatchQueue`, an `OperationQueue`, a `RunLoop`, or a `TestScheduler` in tests.
  ///
  ///     let queue = DispatchQueue(label: "ticks")
  ///     let cancellable = queue.timer(every: .seconds(1))
  ///       .autoconnect()
  ///       .sink { print("tick at \($0)") }
  ///     dispatchMain()
  ///
  /// Like `Timer.publish`, it is connectable: the ticks start at `connect()` (or with the
  /// first subscriber under `autoconnect()`), every subscriber sees the same ticks, and a
  /// subscriber without demand misses them.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks.
  ///   - tolerance: The allowed timing variance; `nil` uses the scheduler's
  ///     `minimumTolerance`.
  ///   - options: Options passed to the scheduler.
  /// - Returns: A connectable publisher of the scheduler's time at each tick.
  public func timer(
    every interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
    options: SchedulerOptions? = nil
  ) -> Publishers.SchedulerTimer<Self> {
    Publishers.SchedulerTimer(
      every: interval, tolerance: tolerance, scheduler: self, options: options)
  }
}

extension Publishers {
  /// A connectable publisher that emits its scheduler's time on a fixed interval; see
  /// ``ReactiveCore/Scheduler/timer(every:tolerance:options:)``.
  ///
  /// Named so that it cannot clash with `Foundation.Timer` or with combine-schedulers'
  /// `Publishers.Timer` when either is imported too.
  ///
  /// - Note: Thread-safe: the running connection is guarded by a lock. Cancelling the
  ///   connection stops the ticks and releases what the scheduler held for them.
  public final class SchedulerTimer<Context: Scheduler>: ConnectablePublisher,
    @unchecked Sendable
  {
    /// The scheduler's time at each tick.
    public typealias Output = Context.SchedulerTimeType
    /// A timer never fails.
    public typealias Failure = Never

    /// The scheduler that drives the ticks.
    public let scheduler: Context
    /// The time between ticks.
    public let interval: Context.SchedulerTimeType.Stride
    /// The allowed timing variance, or `nil` for the scheduler's minimum.
    public let tolerance: Context.SchedulerTimeType.Stride?
    /// Options passed to the scheduler.
    public let options: Context.SchedulerOptions?

    /// The ticks, sent to every subscriber that has demand.
    private let ticks = PassthroughSubject<Output, Never>()
    /// The running connection, if connected.
    private let connection = LockedBox<AnyCancellable?>(nil)

    /// Creates a timer; it starts ticking at `connect()`.
    ///
    /// - Parameters:
    ///   - interval: The time between ticks.
    ///   - tolerance: The allowed timing variance; `nil` for the scheduler's minimum.
    ///   - scheduler: The scheduler that drives the ticks.
    ///   - options: Options passed to the scheduler.
    public init(
      every interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride? = nil, scheduler: Context,
      options: Context.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches a subscriber; it receives the ticks it has demand for.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Never {
      ticks.receive(subscriber: subscriber)
    }

    /// Starts the ticks, or returns the running connection if already connected.
    ///
    /// - Returns: Cancel it to stop the ticks; a later `connect()` starts them again.
    public func connect() -> any Cancellable {
      connection.withLock { running in
        if let running { return running }
        let scheduler = self.scheduler
        let ticks = self.ticks
        let scheduled = scheduler.schedule(
          after: scheduler.now.advanced(by: interval), interval: interval,
          tolerance: tolerance ?? scheduler.minimumTolerance, options: options
        ) { ticks.send(scheduler.now) }
        let started = AnyCancellable { [weak self] in
          scheduled.cancel()
          self?.connection.withLock { $0 = nil }
        }
        running = started
        return started
      }
    }
  }
}
