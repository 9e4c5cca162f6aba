/// A position on a character grid: column `x`, row `y`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The column.
  public var x: Int
  /// The row.
  public var y: Int
  /// The origin.
  public static let zero = Point(x: 0, y: 0)
  /// Creates a point.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
  /// `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}

/// A size in character cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int
  /// No size at all.
  public static let zero = Size(width: 0, height: 0)
  /// Creates a size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
  /// `width×height`.
  public var description: String { "\(width)×\(height)" }
}

/// A rectangle of character cells.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The top-left cell.
  public var origin: Point
  /// The number of columns and rows.
  public var size: Size
  /// The empty rectangle at the origin.
  public static let zero = Rect(origin: .zero, size: .zero)

  /// Creates a rectangle.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its coordinates.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// `origin size`.
  public var description: String { "\(origin) \(size)" }
}

extension Rect {
  /// The rectangle shrunk by `dx` columns on the left and right and `dy` rows on the top
  /// and bottom (grown for negative insets), like `CGRect.insetBy(dx:dy:)` — but never
  /// negative: a rectangle too small for the insets keeps its new origin and an empty size.
  ///
  ///     Rect(x: 0, y: 0, width: 10, height: 3).insetBy(dx: 2, dy: 1)
  ///     // (2, 1) 6×1
  ///     Rect(x: 0, y: 0, width: 3, height: 3).insetBy(dx: 2, dy: 0)
  ///     // (2, 0) 0×3
  ///
  /// - Parameters:
  ///   - dx: The columns to remove on each side.
  ///   - dy: The rows to remove on each side.
  /// - Returns: The inset rectangle; arithmetic saturates instead of overflowing.
  public func insetBy(dx: Int, dy: Int) -> Rect {
    Rect(
      x: origin.x.saturatingAdd(dx), y: origin.y.saturatingAdd(dy),
      width: max(0, size.width.saturatingAdd(dx.saturatingMultiply(-2))),
      height: max(0, size.height.saturatingAdd(dy.saturatingMultiply(-2))))
  }

  /// The columns of this rectangle inside `0..<width`, empty if none: a loop over them
  /// never leaves a canvas of that width, and never overflows.
  func columns(within width: Int) -> Range<Int> {
    Self.clip(origin.x, size.width, to: width)
  }

  /// The rows of this rectangle inside `0..<height`, empty if none.
  func rows(within height: Int) -> Range<Int> {
    Self.clip(origin.y, size.height, to: height)
  }

  private static func clip(_ start: Int, _ length: Int, to limit: Int) -> Range<Int> {
    let lower = max(0, start)
    let upper = min(limit, start.saturatingAdd(max(0, length)))
    return lower < upper ? lower..<upper : lower..<lower
  }
}

extension Size {
  /// This size with each side clamped to `0...maximum`'s side.
  package func clamped(to maximum: Size) -> Size {
    Size(
      width: min(max(0, width), maximum.width), height: min(max(0, height), maximum.height))
  }
}

extension Int {
  /// `self + other`, stopping at `Int.min` or `Int.max` instead of trapping.
  package func saturatingAdd(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }

  /// `self - other`, stopping at `Int.min` or `Int.max` instead of trapping.
  func saturatingSubtract(_ other: Int) -> Int {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }

  /// `self * other`, stopping at `Int.min` or `Int.max` instead of trapping.
  func saturatingMultiply(_ other: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
  }
}
