import Foundation

/// A moment on a Foundation scheduler's clock, held as a `Date`: the time type of `RunLoop`
/// and `OperationQueue` as schedulers.
///
/// `Owner` is the scheduler the time belongs to and is never stored: it only keeps each
/// scheduler's times apart, so `RunLoop.SchedulerTimeType` (`DateSchedulerTime<RunLoop>`)
/// and `OperationQueue.SchedulerTimeType` (`DateSchedulerTime<OperationQueue>`) are distinct
/// types, as they are in Combine, with one implementation. Spell them through the
/// scheduler, as in Combine:
///
///     let start = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 0))
///     let later = start.advanced(by: .milliseconds(1_500))
///     print(later.date.timeIntervalSince1970, start.distance(to: later).timeInterval)
///     // Prints "1.5 1.5"
///
/// A time encodes as a keyed container holding its date under `"date"`
/// (`{"date":0}` with `JSONEncoder`'s defaults, for the reference date).
///
/// - Note: A value type of one `Date`; safe to share between threads.
public struct DateSchedulerTime<Owner>: Strideable, Codable, Hashable, Sendable {
  /// The date represented by this type.
  public var date: Date

  /// Initializes a scheduler time with the given date.
  ///
  /// - Parameter date: The date to represent.
  public init(_ date: Date) { self.date = date }

  /// Returns the distance to another scheduler time.
  ///
  /// - Parameter other: Another time of the same scheduler.
  /// - Returns: The time interval between this time and the provided time.
  public func distance(to other: DateSchedulerTime) -> Stride {
    Stride(other.date.timeIntervalSince(date))
  }

  /// Returns a scheduler time calculated by advancing this instance's time by the given
  /// interval.
  ///
  /// - Parameter n: A time interval to advance.
  /// - Returns: A time advanced by the given interval from this instance's time.
  public func advanced(by n: Stride) -> DateSchedulerTime {
    DateSchedulerTime(date.addingTimeInterval(n.timeInterval))
  }

  /// The interval by which a Foundation scheduler's times advance, in seconds.
  ///
  ///     let stride: RunLoop.SchedulerTimeType.Stride = .milliseconds(1_500)
  ///     print(stride.timeInterval)
  ///     // Prints "1.5"
  ///
  /// A stride encodes as a keyed container holding its seconds under `"magnitude"`
  /// (`{"magnitude":1.5}` with `JSONEncoder`).
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
