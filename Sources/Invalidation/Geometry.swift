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
