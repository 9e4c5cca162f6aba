import Dispatch
import Foundation

extension OperationQueue: Scheduler {
  /// The scheduler time type used by the operation queue: a `Date`.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a operation queue scheduler time with the given date.
    ///
    /// - Parameter date: The date to represent.
    public init(_ date: Date) { self.date = date }

    /// Returns the distance to another operation queue scheduler time.
    ///
    /// - Parameter other: Another operation queue time.
    /// - Returns: The time interval between this time and the provided time.
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a operation queue scheduler time calculated by advancing this instance's time by
    /// the given interval.
    ///
    /// - Parameter n: A time interval to advance.
    /// - Returns: A operation queue time advanced by the given interval from this instance's
    ///   time.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
    }

    /// The interval by which operation queue times advance, in seconds.
    ///
    ///     let stride: OperationQueue.SchedulerTimeType.Stride = .milliseconds(1_500)
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
