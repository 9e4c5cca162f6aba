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

  /// The largest canvas: 2048 columns by 1024 rows. Larger sizes are clamped to it, as a
  /// terminal's reported size is, so that no size (a terminal claiming 65535×65535, a
  /// node whose frame is `Int.max` wide) allocates more than about two million cells.
  /// That is wider than an 8K screen at a four-pixel font.
  public static let maximumSize = Size(width: 2_048, height: 1_024)

  /// Creates a blank canvas.
  ///
  /// A negative side is clamped to zero and a side past ``maximumSize`` to its maximum:
  /// ``size`` is the size the canvas has.
  ///
  /// - Parameter size: The number of columns and rows.
  public init(size: Size) {
    self.size = size.clamped(to: Self.maximumSize)
    cells = Array(repeating: " ", count: self.size.width * self.size.height)
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

  /// Draws text starting at `point`, clipped to the canvas (and to `width` if given; a
  /// width of zero or less draws nothing).
  ///
  /// - Parameters:
  ///   - text: The text to draw on one row.
  ///   - point: Where the first character goes.
  ///   - width: The most columns to use.
  ///   - style: The look of the drawn cells; plain by default.
  public mutating func draw(
    _ text: String, at point: Point, width: Int? = nil, style: CellStyle = .plain
  ) {
    guard point.y >= 0, point.y < size.height else { return }
    for (offset, character) in text.enumerated() {
      if let width, offset >= width { break }
      let (x, overflow) = point.x.addingReportingOverflow(offset)
      guard !overflow, x < size.width else { break }
      set(character, at: Point(x: x, y: point.y), style: style)
    }
  }

  /// Fills a rectangle with one character.
  ///
  /// - Parameters:
  ///   - rect: The cells to fill, clipped to the canvas.
  ///   - character: The character.
  ///   - style: The look of the filled cells; plain by default.
  public mutating func fill(_ rect: Rect, with character: Character, style: CellStyle = .plain) {
    let columns = rect.columns(within: size.width)
    for y in rect.rows(within: size.height) {
      for x in columns { set(character, at: Point(x: x, y: y), style: style) }
    }
  }

  /// Restyles the cells of a rectangle, keeping their characters.
  ///
  /// - Parameters:
  ///   - rect: The cells to restyle, clipped to the canvas.
  ///   - style: Their new look.
  public mutating func apply(_ style: CellStyle, in rect: Rect) {
    let columns = rect.columns(within: size.width)
    for y in rect.rows(within: size.height) {
      for x in columns { styles[y * size.width + x] = style }
    }
  }

  /// Draws a box-drawing frame around the edge of `rect`; the edges outside the canvas
  /// are clipped, and a rectangle narrower or shorter than two cells draws nothing.
  ///
  /// - Parameters:
  ///   - rect: The rectangle whose edge gets the frame.
  ///   - style: The look of the frame; plain by default.
  public mutating func drawBox(in rect: Rect, style: CellStyle = .plain) {
    guard rect.size.width >= 2, rect.size.height >= 2 else { return }
    let left = rect.origin.x
    let top = rect.origin.y
    // The far edges, or `nil` past `Int.max` (then they cannot show).
    let right = Self.farEdge(left, rect.size.width)
    let bottom = Self.farEdge(top, rect.size.height)
    // Only the columns and rows of the edges that can show are walked.
    let inner = rect.insetBy(dx: 1, dy: 1)
    for x in inner.columns(within: size.width) {
      set("─", at: Point(x: x, y: top), style: style)
      if let bottom { set("─", at: Point(x: x, y: bottom), style: style) }
    }
    for y in inner.rows(within: size.height) {
      set("│", at: Point(x: left, y: y), style: style)
      if let right { set("│", at: Point(x: right, y: y), style: style) }
    }
    set("┌", at: Point(x: left, y: top), style: style)
    if let right { set("┐", at: Point(x: right, y: top), style: style) }
    if let bottom { set("└", at: Point(x: left, y: bottom), style: style) }
    if let right, let bottom { set("┘", at: Point(x: right, y: bottom), style: style) }
  }

  /// `start + length - 1`, or `nil` if that is past `Int.max`.
  private static func farEdge(_ start: Int, _ length: Int) -> Int? {
    let (edge, overflow) = start.addingReportingOverflow(length - 1)
    return overflow ? nil : edge
  }

  /// Copies `other` onto this canvas with its top-left at `point`, clipped.
  ///
  /// - Parameters:
  ///   - other: The canvas to copy.
  ///   - point: Where its top-left cell goes; any point, near or far.
  public mutating func composite(_ other: TextCanvas, at point: Point) {
    // The part of `other` that lands on this canvas, in this canvas's coordinates.
    let target = Rect(origin: point, size: other.size)
    let columns = target.columns(within: size.width)
    for y in target.rows(within: size.height) {
      for x in columns {
        let index = (y - point.y) * other.size.width + (x - point.x)
        set(other.cells[index], at: Point(x: x, y: y), style: other.styles[index])
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
