import Foundation

extension Timer {
  /// Returns a publisher that repeatedly emits the current date on the given interval.
  ///
  /// The publisher is connectable: the timer starts when you call `connect()` and stops
  /// when you cancel the returned cancellable. Subscribers without demand miss ticks.
  ///
  /// The timer ticks only while `runLoop` runs in `mode`. A Linux command-line program or
  /// server usually runs no run loop (under `dispatchMain()` this timer never ticks); use
  /// ReactiveExtras' `scheduler.timer(every:)`, which any `Scheduler` drives, there.
  ///
  ///     let publisher = Timer.publish(every: 0.5, on: .current, in: .default)
  ///     let cancellable = publisher.sink { print($0) }
  ///     let connection = publisher.connect()
  ///     RunLoop.current.run(until: Date().addingTimeInterval(1.1))
  ///     // Prints two dates, half a second apart
  ///
  /// - Parameters:
  ///   - interval: The time interval on which to publish events. For example, a value of
  ///     `0.5` publishes an event approximately every half-second.
  ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`,
  ///     which allows any variance.
  ///   - runLoop: The run loop on which the timer runs.
  ///   - mode: The run loop mode in which to run the timer.
  ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
  /// - Returns: A publisher that repeatedly emits the current date on the given interval.
  public static func publish(
    every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop,
    in mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil
  ) -> Timer.TimerPublisher {
    TimerPublisher(
      interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
  }

  /// A publisher that repeatedly emits the current date on a given interval.
  ///
  /// Unchecked `Sendable`: the only mutable state, the running timer, is guarded by a
  /// lock; the run loop is only used to add the timer, which Foundation allows from any
  /// thread.
  public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
    /// The kind of values published by this publisher: the date of each tick.
    public typealias Output = Date
    /// The kind of errors this publisher might publish: none.
    public typealias Failure = Never

    /// The time interval on which to publish events.
    public let interval: TimeInterval
    /// The allowed timing variance when emitting events; `nil` allows any variance.
    public let tolerance: TimeInterval?
    /// The run loop on which the timer runs.
    public let runLoop: RunLoop
    /// The run loop mode in which to run the timer.
    public let mode: RunLoop.Mode
    /// Scheduler options passed to the timer.
    public let options: RunLoop.SchedulerOptions?

    /// Fans ticks out to subscribers, each with its own demand.
    private let subject = PassthroughSubject<Date, Never>()
    /// The running timer, if any, behind its lock.
    private let running = LockedBox<Connection?>(nil)

    /// Creates a publisher that emits the current date every `interval` once connected.
    ///
    /// - Parameters:
    ///   - interval: The interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer.
    public init(
      interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop,
      mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.runLoop = runLoop
      self.mode = mode
      self.options = options
    }

    /// Attaches the subscriber; it receives the ticks it has demand for while connected.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Date, S.Failure == Never {
      subject.receive(subscriber: subscriber)
    }

    /// Starts the timer, if it is not running yet.
    ///
    /// - Returns: A cancellable that stops the timer, also once the publisher is gone.
    public func connect() -> any Cancellable {
      var started: Connection?
      let connection = running.withLock { running -> Connection in
        if let running { return running }
        let connection = Connection(interval: interval, tolerance: tolerance, subject: subject)
        running = connection
        started = connection
        return connection
      }
      if let started { runLoop.add(started.timer, forMode: mode) }
      return AnyCancellable { [weak self] in
        self?.forget(connection)
        connection.stop()
      }
    }

    private func forget(_ connection: Connection) {
      running.withLock { if $0 === connection { $0 = nil } }
    }

    /// A running timer and the tick it sends; stopping it invalidates the timer and
    /// releases the tick, which Foundation's `Timer` would otherwise keep for good (see
    /// `TimerAction`).
    ///
    /// Unchecked `Sendable`: both properties are constants, `TimerAction` guards its
    /// action, and `Timer.invalidate()` may be called from any thread.
    private final class Connection: @unchecked Sendable {
      let timer: Timer
      private let tick: TimerAction

      init(
        interval: TimeInterval, tolerance: TimeInterval?, subject: PassthroughSubject<Date, Never>
      ) {
        let tick = TimerAction { subject.send(Date()) }
        timer = Timer(timeInterval: interval, repeats: true) { _ in tick.run() }
        if let tolerance { timer.tolerance = tolerance }
        self.tick = tick
      }

      func stop() {
        timer.invalidate()
        tick.release()
      }
    }
  }
}
