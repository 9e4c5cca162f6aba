/// A time interval counted in whole nanoseconds: the stride of ``TestScheduler``
/// and `DispatchQueue` as schedulers.
///
///     let interval: SchedulerStride = .milliseconds(1_500)
///     print(interval.timeInterval)
///     // Prints "1.5"
public struct SchedulerStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
  ExpressibleByFloatLiteral, Hashable, Codable, Sendable, CustomStringConvertible
{
  /// The value of this time interval in nanoseconds.
  public var magnitude: Int

  /// The value of this time interval in seconds.
  public var timeInterval: Double { Double(magnitude) / 1e9 }

  /// Creates an interval of `nanoseconds`.
  public init(nanoseconds: Int) { magnitude = nanoseconds }

  /// Creates an interval from a number of seconds.
  public init(_ timeInterval: Double) { magnitude = Int((timeInterval * 1e9).rounded()) }

  /// Creates an interval from a whole number of seconds.
  public init(integerLiteral value: Int) { self.init(nanoseconds: value * 1_000_000_000) }

  /// Creates an interval from a number of seconds.
  public init(floatLiteral value: Double) { self.init(value) }

  /// Creates an interval from an exact integer number of seconds, if it fits.
  public init?<T: BinaryInteger>(exactly source: T) {
    guard let seconds = Int(exactly: source) else { return nil }
    let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return nil }
    magnitude = nanoseconds
  }

  /// An interval of whole seconds.
  public static func seconds(_ s: Int) -> SchedulerStride { .init(nanoseconds: s * 1_000_000_000) }
  /// An interval of seconds.
  public static func seconds(_ s: Double) -> SchedulerStride { .init(s) }
  /// An interval of milliseconds.
  public static func milliseconds(_ ms: Int) -> SchedulerStride {
    .init(nanoseconds: ms * 1_000_000)
  }
  /// An interval of microseconds.
  public static func microseconds(_ us: Int) -> SchedulerStride { .init(nanoseconds: us * 1_000) }
  /// An interval of nanoseconds.
  public static func nanoseconds(_ ns: Int) -> SchedulerStride { .init(nanoseconds: ns) }

  /// Orders intervals by length.
  public static func < (lhs: SchedulerStride, rhs: SchedulerStride) -> Bool {
    lhs.magnitude < rhs.magnitude
  }
  /// The sum of two intervals.
  public static func + (lhs: SchedulerStride, rhs: SchedulerStride) -> SchedulerStride {
    .init(nanoseconds: lhs.magnitude + rhs.magnitude)
  }
  /// The difference of two intervals.
  public static func - (lhs: SchedulerStride, rhs: SchedulerStride) -> SchedulerStride {
    .init(nanoseconds: lhs.magnitude - rhs.magnitude)
  }
  /// The product of two intervals, in nanoseconds, saturating at the bounds of `Int`
  /// rather than trapping (any two intervals of seconds overflow).
  public static func * (lhs: SchedulerStride, rhs: SchedulerStride) -> SchedulerStride {
    let (product, overflow) = lhs.magnitude.multipliedReportingOverflow(by: rhs.magnitude)
    guard overflow else { return .init(nanoseconds: product) }
    return .init(nanoseconds: (lhs.magnitude < 0) == (rhs.magnitude < 0) ? .max : .min)
  }
  /// Adds an interval in place.
  public static func += (lhs: inout SchedulerStride, rhs: SchedulerStride) { lhs = lhs + rhs }
  /// Subtracts an interval in place.
  public static func -= (lhs: inout SchedulerStride, rhs: SchedulerStride) { lhs = lhs - rhs }
  /// Multiplies in place.
  public static func *= (lhs: inout SchedulerStride, rhs: SchedulerStride) { lhs = lhs * rhs }

  /// The interval in seconds, e.g. `1.5s`.
  public var description: String { "\(timeInterval)s" }
}

/// An instant on a scheduler clock, counted in nanoseconds from the clock's zero: the
/// time type of ``TestScheduler``.
public struct SchedulerInstant: Strideable, Hashable, Codable, Sendable, CustomStringConvertible {
  /// Nanoseconds since the clock's zero.
  public var nanoseconds: Int

  /// Creates the instant `nanoseconds` after the clock's zero.
  public init(_ nanoseconds: Int) { self.nanoseconds = nanoseconds }

  /// The interval from this instant to another.
  public func distance(to other: SchedulerInstant) -> SchedulerStride {
    .init(nanoseconds: other.nanoseconds - nanoseconds)
  }

  /// The instant `n` after this one.
  public func advanced(by n: SchedulerStride) -> SchedulerInstant {
    .init(nanoseconds + n.magnitude)
  }

  /// The instant in seconds, e.g. `t=1.5s`.
  public var description: String { "t=\(Double(nanoseconds) / 1e9)s" }
}
