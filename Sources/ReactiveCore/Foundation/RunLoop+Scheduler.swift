import Foundation

extension RunLoop: Scheduler {
  /// The scheduler time type used by the run loop: a `Date`.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a run loop scheduler time with the given date.
    ///
    /// - Parameter date: The date to represent.
    public init(_ date: Date) { self.date = date }

    /// Returns the distance to another run loop scheduler time.
    ///
    /// - Parameter other: Another run loop time.
    /// - Returns: The time interval between this time and the provided time.
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a run loop scheduler time calculated by advancing this instance's time by
    /// the given interval.
    ///
    /// - Parameter n: A time interval to advance.
    /// - Returns: A run loop time advanced by the given interval from this instance's
    ///   time.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
    }

    /// The interval by which run loop times advance, in seconds.
    ///
    ///     let stride: RunLoop.SchedulerTimeType.Stride = .milliseconds(1_500)
    ///     print(stride.timeInterval)
    ///     // Prints "1.5"
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
      Hashable, SchedulerTimeIntervalConvertible, Sendable
    {
      /// The type used when evaluating floating-point literals.
      public typealias FloatLiteralType = TimeInterval
      /// The type used when evaluating integer literals.
      public typealias IntegerLiteralType = TimeInterval
      /// The type used for expressing the stride's magnitude.
      public typealias Magnitude = TimeInterval

      /// The value of this time interval in seconds.
      public var magnitude: TimeInterval

      /// The value of this time interval in seconds.
      public var timeInterval: TimeInterval { magnitude }

      /// Creates a time interval from an integer literal number of seconds.
      ///
      /// - Parameter value: The number of seconds.
      public init(integerLiteral value: TimeInterval) { magnitude = value }

      /// Creates a time interval from a floating-point literal number of seconds.
      ///
      /// - Parameter value: The number of seconds.
      public init(floatLiteral value: TimeInterval) { magnitude = value }

      /// Creates a time interval from a number of seconds.
      ///
      /// - Parameter timeInterval: The number of seconds.
      public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }

      /// Creates a time interval from an exact integer number of seconds.
      ///
      /// - Parameter source: The number of seconds.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        magnitude = value
      }

      /// Whether one interval is shorter than another.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      /// The product of two intervals.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude * rhs.magnitude)
      }
      /// The sum of two intervals.
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude + rhs.magnitude)
      }
      /// The difference of two intervals.
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude - rhs.magnitude)
      }
      /// Multiplies in place.
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
      /// Adds in place.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      /// Subtracts in place.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      /// An interval of whole seconds.
      ///
      /// - Parameter s: The number of seconds.
      /// - Returns: The interval.
      public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
      /// An interval of seconds.
      ///
      /// - Parameter s: The number of seconds.
      /// - Returns: The interval.
      public static func seconds(_ s: Double) -> Stride { Stride(s) }
      /// An interval of milliseconds.
      ///
      /// - Parameter ms: The number of milliseconds.
      /// - Returns: The interval.
      public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1e3) }
      /// An interval of microseconds.
      ///
      /// - Parameter us: The number of microseconds.
      /// - Returns: The interval.
      public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1e6) }
      /// An interval of nanoseconds.
      ///
      /// - Parameter ns: The number of nanoseconds.
      /// - Returns: The interval.
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1e9) }
    }
  }

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

/// The action a Foundation `Timer` runs, in a box that can let go of it.
///
/// swift-corelibs-foundation's `Timer` retains itself for its run-loop context and never
/// releases that reference, so on Linux every `Timer`, with the block it was made with,
/// stays allocated for the life of the process, even after it fired or was invalidated.
/// The block therefore holds only this box, and the box drops the action once a one-shot
/// timer has fired or a repeating one was cancelled: what the action captured (an
/// operator's subscription, its subscriber) is freed, and only Foundation's own few
/// bytes remain.
///
/// Unchecked `Sendable`: `action` is only reached under `lock`; the timer calls it on its
/// run loop's thread, which is the contract Combine's `Scheduler` has always had.
final class TimerAction: @unchecked Sendable {
  /// The lock that guards `action`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var action: (() -> Void)?

  init(_ action: @escaping () -> Void) { self.action = action }

  /// Runs the action, if it was not released.
  func run() {
    lock.lock()
    let current = action
    lock.unlock()
    current?()
  }

  /// Runs the action once and releases it.
  func runOnce() {
    lock.lock()
    let taken = action
    action = nil
    lock.unlock()
    taken?()
  }

  /// Releases the action without running it.
  func release() {
    lock.lock()
    let taken = action
    action = nil
    lock.unlock()
    _ = taken
  }
}

/// Invalidates a Foundation `Timer` once and releases its action, then lets go of both.
///
/// Unchecked `Sendable`: the timer is only reached under `lock`, and
/// `Timer.invalidate()` may be called from any thread.
final class TimerInvalidation: Cancellable, @unchecked Sendable {
  /// The lock that guards `timer` and `action`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var timer: Timer?
  @exclusivity(unchecked)
  private var action: TimerAction?

  init(_ timer: Timer, action: TimerAction) {
    self.timer = timer
    self.action = action
  }

  func cancel() {
    let taken = lock.withLock { () -> (Timer?, TimerAction?) in
      defer {
        timer = nil
        action = nil
      }
      return (timer, action)
    }
    taken.0?.invalidate()
    taken.1?.release()
  }
}
