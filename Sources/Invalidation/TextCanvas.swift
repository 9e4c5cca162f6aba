/// A grid of characters that render nodes draw into: the headless stand-in for a
/// graphics context. ``rendered`` turns it into lines of text for a terminal or a test.
///
///     var canvas = TextCanvas(size: Size(width: 12, height: 3))
///     canvas.drawBox(in: Rect(x: 0, y: 0, width: 12, height: 3))
///     canvas.draw("hello", at: Point(x: 2, y: 1))
///     print(canvas.rendered)
///     // ┌──────────┐
///     // │ hello    │
///     // └──────────┘
public struct TextCanvas: Sendable, Equatable {
  /// The canvas size in cells.
  public let size: Size
  private var cells: [Character]

  /// Creates a blank canvas.
  ///
  /// - Parameter size: The number of columns and rows.
  public init(size: Size) {
    self.size = size
    cells = Array(repeating: " ", count: max(0, size.width * size.height))
  }

  /// The character at `point`, or `nil` outside the canvas.
  public subscript(point: Point) -> Character? {
    guard contains(point) else { return nil }
    return cells[point.y * size.width + point.x]
  }

  private func contains(_ point: Point) -> Bool {
    point.x >= 0 && point.y >= 0 && point.x < size.width && point.y < size.height
  }

  /// Sets one cell; points outside the canvas are ignored (clipped).
  public mutating func set(_ character: Character, at point: Point) {
    guard contains(point) else { return }
    cells[point.y * size.width + point.x] = character
  }

  /// Draws text starting at `point`, clipped to the canvas (and to `width` if given).
  ///
  /// - Parameters:
  ///   - text: The text to draw on one row.
  ///   - point: Where the first character goes.
  ///   - width: The most columns to use.
  public mutating func draw(_ text: String, at point: Point, width: Int? = nil) {
    for (offset, character) in text.enumerated() {
      if let width, offset >= width { break }
      set(character, at: Point(x: point.x + offset, y: point.y))
    }
  }

  /// Fills a rectangle with one character.
  public mutating func fill(_ rect: Rect, with character: Character) {
    for y in rect.origin.y..<(rect.origin.y + rect.size.height) {
      for x in rect.origin.x..<(rect.origin.x + rect.size.width) {
        set(character, at: Point(x: x, y: y))
      }
    }
  }

  /// Draws a box-drawing frame around the edge of `rect`.
  public mutating func drawBox(in rect: Rect) {
    guard rect.size.width >= 2, rect.size.height >= 2 else { return }
    let left = rect.origin.x
    let right = rect.origin.x + rect.size.width - 1
    let top = rect.origin.y
    let bottom = rect.origin.y + rect.size.height - 1
    for x in (left + 1)..<right {
      set("─", at: Point(x: x, y: top))
      set("─", at: Point(x: x, y: bottom))
    }
    for y in (top + 1)..<bottom {
      set("│", at: Point(x: left, y: y))
      set("│", at: Point(x: right, y: y))
    }
    set("┌", at: Point(x: left, y: top))
    set("┐", at: Point(x: right, y: top))
    set("└", at: Point(x: left, y: bottom))
    set("┘", at: Point(x: right, y: bottom))
  }

  /// Copies `other` onto this canvas with its top-left at `point`, clipped.
  public mutating func composite(_ other: TextCanvas, at point: Point) {
    for y in 0..<other.size.height {
      for x in 0..<other.size.width {
        set(other.cells[y * other.size.width + x], at: Point(x: point.x + x, y: point.y + y))
      }
    }
  }

  /// The canvas as lines of text, trailing spaces removed.
  public var lines: [String] {
    (0..<size.height).map { row in
      let start = row * size.width
      var line = String(cells[start..<(start + size.width)])
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// The canvas as one string, lines joined by newlines.
  public var rendered: String { lines.joined(separator: "\n") }
}
