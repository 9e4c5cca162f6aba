extension ImmediateScheduler {
  /// The time type of the immediate scheduler: a moment that never moves, since the
  /// scheduler performs every action at once.
  ///
  /// Every instance is equal to every other; advancing it by any stride gives the same
  /// moment, and the distance between two moments is always zero.
  public struct SchedulerTimeType: Strideable, Sendable {
    /// Returns the distance to another immediate scheduler time, which is always zero.
    ///
    /// - Parameter other: Another immediate scheduler time.
    /// - Returns: A stride of zero.
    public func distance(to other: SchedulerTimeType) -> Stride { 0 }

    /// Returns this moment: the immediate scheduler's time does not advance.
    ///
    /// - Parameter n: A stride, which is ignored.
    /// - Returns: The same moment.
    public func advanced(by n: Stride) -> SchedulerTimeType { self }

    /// No moment of the immediate scheduler comes before another.
    public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool { false }

    /// Every moment of the immediate scheduler equals every other.
    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool { true }

    /// The increment by which the immediate scheduler counts time: a whole number with
    /// no unit, since the scheduler ignores every date. Converting seconds, milliseconds
    /// and so on gives zero, as Combine's does.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
      SchedulerTimeIntervalConvertible, Hashable, Sendable
    {
      /// The value of this stride.
      public var magnitude: Int

      /// Creates a stride of the given value.
      ///
      /// - Parameter value: The value of the stride.
      public init(_ value: Int) { magnitude = value }

      /// Creates a stride from an integer literal.
      public init(integerLiteral value: Int) { self.init(value) }

      /// Creates a stride from a floating-point literal, dropping its fraction.
      public init(floatLiteral value: Double) { self.init(Int(value)) }

      /// Creates a stride from an integer, if it fits in `Int`.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        self.init(value)
      }

      /// Orders strides by value.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      /// The product of two strides.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude * rhs.magnitude)
      }
      /// The sum of two strides.
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude + rhs.magnitude)
      }
      /// The difference of two strides.
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude - rhs.magnitude)
      }
      /// Subtracts a stride in place.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      /// Multiplies in place.
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
      /// Adds a stride in place.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      /// Zero: the immediate scheduler ignores time.
      public static func seconds(_ s: Int) -> Stride { 0 }
      /// Zero: the immediate scheduler ignores time.
      public static func seconds(_ s: Double) -> Stride { 0 }
      /// Zero: the immediate scheduler ignores time.
      public static func milliseconds(_ ms: Int) -> Stride { 0 }
      /// Zero: the immediate scheduler ignores time.
      public static func microseconds(_ us: Int) -> Stride { 0 }
      /// Zero: the immediate scheduler ignores time.
      public static func nanoseconds(_ ns: Int) -> Stride { 0 }
    }
  }
}
