/// A run of text in one style: a line made of spans mixes colours and attributes, as
/// ratatui's `Span`s make a `Line`.
///
///     let status = [
///       TextSpan("ERROR", style: CellStyle(foreground: .standard(.red), attributes: .bold)),
///       TextSpan(" disk full · "),
///       TextSpan("3 pinned", style: CellStyle(attributes: .dim)),
///     ]
///     canvas.draw(status, in: row)
public struct TextSpan: Hashable, Sendable, ExpressibleByStringLiteral {
  /// The text.
  public var text: String
  /// Its look.
  public var style: CellStyle

  /// Creates a span.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - style: Its look; plain by default.
  public init(_ text: String, style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  /// Creates a plain span from a string literal.
  ///
  /// - Parameter value: The text.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension TextCanvas {
  /// Draws a line of spans on the first row of `rect`, each in its own style, aligned in
  /// the rectangle's width as a whole and clipped to it, as
  /// ``draw(_:in:alignment:style:)`` draws one string.
  ///
  /// - Parameters:
  ///   - spans: The runs of the line, in order.
  ///   - rect: Where it goes; only its first row and its width matter.
  ///   - alignment: Where the line sits when narrower than the rectangle.
  public mutating func draw(_ spans: [TextSpan], in rect: Rect, alignment: TextAlignment = .leading)
  {
    guard rect.size.width > 0, rect.size.height > 0 else { return }
    let columns = spans.reduce(0) { $0 + $1.text.terminalColumns }
    let room = max(0, rect.size.width - columns)
    var x: Int
    switch alignment {
    case .leading: x = 0
    case .center: x = room / 2
    case .trailing: x = room
    }
    for span in spans {
      let left = rect.size.width - x
      guard left > 0 else { break }
      draw(
        span.text, at: Point(x: rect.origin.x.saturatingAdd(x), y: rect.origin.y), width: left,
        style: span.style)
      x += span.text.terminalColumns
    }
  }
}

extension String {
  /// The string with each tab replaced by the spaces that reach the next tab stop, every
  /// `width` columns (counted as the terminal counts them; a line break starts the count
  /// again). A terminal app shows tabs this way: written as themselves, they would move
  /// the cursor, so the canvas shows them as `?`.
  ///
  ///     "a\tbc\td".expandingTabs(every: 4)   // "a   bc  d"
  ///
  /// - Parameter width: The distance between tab stops, in columns; below 1, a tab
  ///   becomes one space.
  /// - Returns: The string without tabs.
  public func expandingTabs(every width: Int) -> String {
    guard contains("\t") else { return self }
    var result = ""
    var column = 0
    for character in self {
      if character == "\t" {
        let spaces = width < 1 ? 1 : width - column % width
        result += String(repeating: " ", count: spaces)
        column += spaces
      } else {
        result.append(character)
        column = character.isNewline ? 0 : column + character.terminalColumns
      }
    }
    return result
  }
}
