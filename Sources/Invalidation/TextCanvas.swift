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
///
/// Each cell holds one `Character` and a ``CellStyle``. A cell is one column wide: wide
/// characters (most CJK, emoji) are not measured, so keep them out of terminal output.
public struct TextCanvas: Sendable, Equatable {
  /// The canvas size in cells.
  public let size: Size
  private var cells: [Character]
  private var styles: [CellStyle]

  /// Creates a blank canvas.
  ///
  /// - Parameter size: The number of columns and rows.
  public init(size: Size) {
    self.size = size
    cells = Array(repeating: " ", count: max(0, size.width * size.height))
    styles = Array(repeating: .plain, count: cells.count)
  }

  /// The character at `point`, or `nil` outside the canvas.
  public subscript(point: Point) -> Character? {
    guard contains(point) else { return nil }
    return cells[point.y * size.width + point.x]
  }

  /// The style of the cell at `point`, or `nil` outside the canvas.
  ///
  /// - Parameter point: The cell.
  /// - Returns: Its style.
  public func style(at point: Point) -> CellStyle? {
    guard contains(point) else { return nil }
    return styles[point.y * size.width + point.x]
  }

  /// The character and style at a cell index, for the backends' row-major walks.
  func cell(atIndex index: Int) -> (Character, CellStyle) { (cells[index], styles[index]) }

  private func contains(_ point: Point) -> Bool {
    point.x >= 0 && point.y >= 0 && point.x < size.width && point.y < size.height
  }

  /// Sets one cell; points outside the canvas are ignored (clipped).
  ///
  /// - Parameters:
  ///   - character: The character.
  ///   - point: The cell.
  ///   - style: Its look; plain by default.
  public mutating func set(_ character: Character, at point: Point, style: CellStyle = .plain) {
    guard contains(point) else { return }
    let index = point.y * size.width + point.x
    cells[index] = character
    styles[index] = style
  }

  /// Draws text starting at `point`, clipped to the canvas (and to `width` if given).
  ///
  /// - Parameters:
  ///   - text: The text to draw on one row.
  ///   - point: Where the first character goes.
  ///   - width: The most columns to use.
  ///   - style: The look of the drawn cells; plain by default.
  public mutating func draw(
    _ text: String, at point: Point, width: Int? = nil, style: CellStyle = .plain
  ) {
    for (offset, character) in text.enumerated() {
      if let width, offset >= width { break }
      set(character, at: Point(x: point.x + offset, y: point.y), style: style)
    }
  }

  /// Fills a rectangle with one character.
  ///
  /// - Parameters:
  ///   - rect: The cells to fill, clipped to the canvas.
  ///   - character: The character.
  ///   - style: The look of the filled cells; plain by default.
  public mutating func fill(_ rect: Rect, with character: Character, style: CellStyle = .plain) {
    for y in rect.origin.y..<(rect.origin.y + rect.size.height) {
      for x in rect.origin.x..<(rect.origin.x + rect.size.width) {
        set(character, at: Point(x: x, y: y), style: style)
      }
    }
  }

  /// Restyles the cells of a rectangle, keeping their characters.
  ///
  /// - Parameters:
  ///   - rect: The cells to restyle, clipped to the canvas.
  ///   - style: Their new look.
  public mutating func apply(_ style: CellStyle, in rect: Rect) {
    let top = max(0, rect.origin.y)
    let left = max(0, rect.origin.x)
    let rows = top..<max(top, min(size.height, rect.origin.y + rect.size.height))
    let columns = left..<max(left, min(size.width, rect.origin.x + rect.size.width))
    for y in rows {
      for x in columns { styles[y * size.width + x] = style }
    }
  }

  /// Draws a box-drawing frame around the edge of `rect`.
  ///
  /// - Parameters:
  ///   - rect: The rectangle whose edge gets the frame.
  ///   - style: The look of the frame; plain by default.
  public mutating func drawBox(in rect: Rect, style: CellStyle = .plain) {
    guard rect.size.width >= 2, rect.size.height >= 2 else { return }
    let left = rect.origin.x
    let right = rect.origin.x + rect.size.width - 1
    let top = rect.origin.y
    let bottom = rect.origin.y + rect.size.height - 1
    for x in (left + 1)..<right {
      set("─", at: Point(x: x, y: top), style: style)
      set("─", at: Point(x: x, y: bottom), style: style)
    }
    for y in (top + 1)..<bottom {
      set("│", at: Point(x: left, y: y), style: style)
      set("│", at: Point(x: right, y: y), style: style)
    }
    set("┌", at: Point(x: left, y: top), style: style)
    set("┐", at: Point(x: right, y: top), style: style)
    set("└", at: Point(x: left, y: bottom), style: style)
    set("┘", at: Point(x: right, y: bottom), style: style)
  }

  /// Copies `other` onto this canvas with its top-left at `point`, clipped.
  public mutating func composite(_ other: TextCanvas, at point: Point) {
    for y in 0..<other.size.height {
      for x in 0..<other.size.width {
        let index = y * other.size.width + x
        set(
          other.cells[index], at: Point(x: point.x + x, y: point.y + y), style: other.styles[index])
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
