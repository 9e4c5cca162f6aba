extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the
  /// subscription.
  ///
  /// Arithmetic saturates: adding to ``unlimited`` stays unlimited, a finite result past
  /// `Int.max` becomes unlimited, and subtracting never goes below ``none``.
  ///
  ///     let demand = Subscribers.Demand.max(2) + 3
  ///     print(demand)
  ///     // Prints "max(5)"
  @frozen
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible,
    Sendable
  {
    @usableFromInline
    let rawValue: UInt

    @inlinable
    init(rawValue: UInt) { self.rawValue = rawValue }

    // Computed rather than stored: a stored static is reached through its lazy
    // initializer's accessor on every use from another module, and every subscriber
    // returns `.none` for every value.

    /// A request for as many values as the publisher can produce.
    @inlinable
    public static var unlimited: Demand { Demand(rawValue: .max) }

    /// A request for no elements from the publisher. This is equivalent to `max(0)`.
    @inlinable
    public static var none: Demand { Demand(rawValue: 0) }

    /// Creates a demand for the given maximum number of elements.
    ///
    /// The publisher is free to send fewer than the requested maximum number of elements.
    ///
    /// - Parameter value: The maximum number of elements. Providing a negative value for
    ///   this parameter results in a fatal error, as in Combine.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "demand cannot be negative")
      return Demand(rawValue: UInt(value))
    }

    /// The number of requested values, or `nil` if unlimited.
    @inlinable
    public var max: Int? { self == .unlimited ? nil : Int(rawValue) }

    /// A textual representation of the demand: `unlimited` or `max(n)`.
    public var description: String { self == .unlimited ? "unlimited" : "max(\(rawValue))" }

    /// Returns the sum of two demands, saturating at ``unlimited``.
    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      if lhs == .unlimited || rhs == .unlimited { return .unlimited }
      let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
      return overflow || sum > UInt(Int.max) ? .unlimited : Demand(rawValue: sum)
    }

    /// Adds a demand to a demand, saturating at ``unlimited``.
    @inlinable
    public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

    /// Returns the sum of a demand and an integer (a negative integer subtracts).
    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(rhs)
      if overflow { return rhs > 0 ? .unlimited : .none }
      return sum < 0 ? .none : Demand(rawValue: UInt(sum))
    }

    /// Adds an integer to a demand (a negative integer subtracts).
    @inlinable
    public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    /// Returns a demand multiplied by an integer, saturating at ``unlimited``.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      precondition(rhs >= 0, "demand cannot be multiplied by a negative number")
      if lhs == .unlimited { return .unlimited }
      let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
      return overflow || product > UInt(Int.max) ? .unlimited : Demand(rawValue: product)
    }

    /// Multiplies a demand by an integer, saturating at ``unlimited``.
    @inlinable
    public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

    /// Returns the difference of two demands; never less than ``none``.
    ///
    /// Subtracting from ``unlimited`` leaves it unlimited; subtracting ``unlimited`` from
    /// a finite demand gives ``none``.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      if lhs == .unlimited { return .unlimited }
      if rhs == .unlimited { return .none }
      return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
    }

    /// Subtracts a demand from a demand; never less than ``none``.
    @inlinable
    public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

    /// Returns a demand minus an integer (a negative integer adds); never less than ``none``.
    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      // As in Combine, a difference that overflows (subtracting a negative number from a
      // large demand) is `.none`, like one that would be negative.
      let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
      return overflow || difference < 0 ? .none : Demand(rawValue: UInt(difference))
    }

    /// Subtracts an integer from a demand; never less than ``none``.
    @inlinable
    public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

    /// Orders demands; ``unlimited`` is greater than every finite demand.
    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a demand is greater than an integer; ``unlimited`` is greater than any.
    @inlinable
    public static func > (lhs: Demand, rhs: Int) -> Bool {
      rhs < 0 || lhs.rawValue > UInt(rhs)
    }

    /// Whether a demand is greater than or equal to an integer.
    @inlinable
    public static func >= (lhs: Demand, rhs: Int) -> Bool {
      rhs < 0 || lhs.rawValue >= UInt(rhs)
    }

    /// Whether a demand is less than an integer.
    @inlinable
    public static func < (lhs: Demand, rhs: Int) -> Bool { !(lhs >= rhs) }

    /// Whether a demand is less than or equal to an integer.
    @inlinable
    public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }

    /// Whether an integer is greater than a demand.
    @inlinable
    public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }

    /// Whether an integer is greater than or equal to a demand.
    @inlinable
    public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

    /// Whether an integer is less than a demand.
    @inlinable
    public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }

    /// Whether an integer is less than or equal to a demand.
    @inlinable
    public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

    /// Whether a demand equals an integer; ``unlimited`` equals none.
    @inlinable
    public static func == (lhs: Demand, rhs: Int) -> Bool {
      rhs >= 0 && lhs != .unlimited && lhs.rawValue == UInt(rhs)
    }

    /// Whether a demand differs from an integer.
    @inlinable
    public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

    /// Whether an integer equals a demand.
    @inlinable
    public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }

    /// Whether an integer differs from a demand.
    @inlinable
    public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

    /// The count Combine stores for ``unlimited``: `Int.max + 1`.
    private static let encodedUnlimited = UInt(Int.max) + 1

    /// Decodes a demand stored as its raw count, as Combine encodes it: any count past
    /// `Int.max` (Combine writes ``unlimited`` as `Int.max + 1`) is ``unlimited``.
    public init(from decoder: any Decoder) throws {
      let count = try decoder.singleValueContainer().decode(UInt.self)
      rawValue = count > UInt(Int.max) ? Demand.unlimited.rawValue : count
    }

    /// Encodes the demand as its raw count, as Combine does: ``unlimited`` as `Int.max + 1`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(self == .unlimited ? Demand.encodedUnlimited : rawValue)
    }
  }
}
