import Dispatch

extension DispatchQueue {
  /// The scheduler time type used by the dispatch queue.
  ///
  /// As in Combine, it wraps a `DispatchTime`, encodes as its uptime in nanoseconds, and
  /// measures distances as a ``Stride`` that saturates instead of overflowing.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The dispatch time represented by this type.
    public var dispatchTime: DispatchTime

    /// Creates a dispatch queue time type instance.
    ///
    /// - Parameter time: The dispatch time to represent.
    public init(_ time: DispatchTime) { dispatchTime = time }

    /// The distance to another dispatch queue time; `.nanoseconds(.max)` when it does not
    /// fit in an `Int` (as for `DispatchTime.distantFuture`).
    public func distance(to other: SchedulerTimeType) -> Stride {
      let start = dispatchTime.rawValue
      let end = other.dispatchTime.rawValue
      let (difference, isNegative) = end >= start ? (end &- start, false) : (start &- end, true)
      guard difference <= UInt64(Int.max) else { return .nanoseconds(.max) }
      return .nanoseconds(isNegative ? -Int(difference) : Int(difference))
    }

    /// Returns a dispatch queue scheduler time calculated by advancing this instance's
    /// time by the given interval; `.nanoseconds(.max)` reaches the distant future.
    public func advanced(by stride: Stride) -> SchedulerTimeType {
      stride.magnitude == .max
        ? SchedulerTimeType(.distantFuture) : SchedulerTimeType(dispatchTime + stride.timeInterval)
    }

    /// Hashes the dispatch time.
    public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.rawValue) }

    /// Whether two times are equal.
    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime == rhs.dispatchTime
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
  }
}

extension DispatchQueue.SchedulerTimeType {
  /// A type that represents the distance between two dispatch times, in nanoseconds.
  ///
  /// Integer and floating-point literals are seconds, as in Combine:
  ///
  ///     let half: DispatchQueue.SchedulerTimeType.Stride = 0.5
  ///     print(half.magnitude)
  ///     // Prints "500000000"
  ///
  /// Construction from seconds, milliseconds and microseconds saturates at `Int.max` and
  /// `Int.min`. Multiplying two strides gives zero, as Combine's does (the product of two
  /// durations is not a duration).
  public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
    ExpressibleByFloatLiteral, Hashable, Codable, Sendable
  {
    /// The type used when evaluating floating-point literals.
    public typealias FloatLiteralType = Double
    /// The type used when evaluating integer literals.
    public typealias IntegerLiteralType = Int
    /// A type that can represent the absolute value of any possible value.
    public typealias Magnitude = Int

    // The stored name is Combine's coding key (`{"_nanoseconds": …}`).
    private var _nanoseconds: Int64

    /// The value of this time interval in nanoseconds.
    public var magnitude: Int {
      get { Int(_nanoseconds) }
      set { _nanoseconds = Int64(newValue) }
    }

    /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
    public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

    private init(nanoseconds: Int64) { _nanoseconds = nanoseconds }

    /// Creates a dispatch queue time interval from a dispatch time interval;
    /// `.never` becomes `.nanoseconds(.max)`.
    public init(_ timeInterval: DispatchTimeInterval) {
      switch timeInterval {
      case .seconds(let seconds): self = .seconds(seconds)
      case .milliseconds(let milliseconds): self = .milliseconds(milliseconds)
      case .microseconds(let microseconds): self = .microseconds(microseconds)
      case .nanoseconds(let nanoseconds): self = .nanoseconds(nanoseconds)
      case .never: self = .nanoseconds(.max)
      @unknown default: self = .nanoseconds(.max)
      }
    }

    /// Creates a dispatch queue time interval from a floating-point seconds value.
    public init(floatLiteral value: Double) { self = .seconds(value) }

    /// Creates a dispatch queue time interval from an integer seconds value.
    public init(integerLiteral value: Int) { self = .seconds(value) }

    /// Creates a dispatch queue time interval from a binary integer number of seconds,
    /// if it fits in an `Int`.
    public init?<Source: BinaryInteger>(exactly source: Source) {
      guard let seconds = Int(exactly: source) else { return nil }
      self = .seconds(seconds)
    }

    /// Whether `lhs` is shorter than `rhs`.
    public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs._nanoseconds < rhs._nanoseconds }

    /// Zero: Combine defines no product of two durations.
    public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: 0) }

    /// The sum of two intervals.
    public static func + (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs._nanoseconds + rhs._nanoseconds)
    }

    /// The difference of two intervals.
    public static func - (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs._nanoseconds - rhs._nanoseconds)
    }

    /// Subtracts an interval in place.
    public static func -= (lhs: inout Stride, rhs: Stride) { lhs._nanoseconds -= rhs._nanoseconds }

    /// Sets the interval to zero, as ``*(_:_:)`` does.
    public static func *= (lhs: inout Stride, rhs: Stride) { lhs._nanoseconds = 0 }

    /// Adds an interval in place.
    public static func += (lhs: inout Stride, rhs: Stride) { lhs._nanoseconds += rhs._nanoseconds }

    /// An interval of `value` seconds, saturating at the bounds of `Int`.
    public static func seconds(_ value: Double) -> Stride {
      let nanoseconds = value * 1_000_000_000
      if nanoseconds >= Double(Int64.max) { return Stride(nanoseconds: .max) }
      if nanoseconds <= Double(Int64.min) { return Stride(nanoseconds: .min) }
      return Stride(nanoseconds: Int64(nanoseconds))
    }

    /// An interval of `value` seconds, saturating at the bounds of `Int`.
    public static func seconds(_ value: Int) -> Stride {
      Stride(nanoseconds: clampedProduct(Int64(value), 1_000_000_000))
    }

    /// An interval of `value` milliseconds, saturating at the bounds of `Int`.
    public static func milliseconds(_ value: Int) -> Stride {
      Stride(nanoseconds: clampedProduct(Int64(value), 1_000_000))
    }

    /// An interval of `value` microseconds, saturating at the bounds of `Int`.
    public static func microseconds(_ value: Int) -> Stride {
      Stride(nanoseconds: clampedProduct(Int64(value), 1_000))
    }

    /// An interval of `value` nanoseconds.
    public static func nanoseconds(_ value: Int) -> Stride { Stride(nanoseconds: Int64(value)) }

    /// `lhs * rhs` for a positive `rhs`, clamped to the range of `Int64`.
    private static func clampedProduct(_ lhs: Int64, _ rhs: Int64) -> Int64 {
      let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
      guard overflow else { return product }
      return lhs > 0 ? .max : .min
    }
  }
}
