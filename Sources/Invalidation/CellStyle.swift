/// How one cell of a ``TextCanvas`` looks: colours and attributes, which the terminal
/// backend turns into ANSI escape codes and the HTML backend into inline styles.
///
///     var canvas = TextCanvas(size: Size(width: 10, height: 1))
///     canvas.draw("warning", at: .zero, style: CellStyle(foreground: .standard(.yellow), attributes: .bold))
public struct CellStyle: Hashable, Sendable {
  /// The text colour, or `nil` for the terminal's default.
  public var foreground: CellColor?
  /// The background colour, or `nil` for the terminal's default.
  public var background: CellColor?
  /// Bold, dim, italic, underline, reverse.
  public var attributes: CellAttributes

  /// The terminal's default look: no colours, no attributes.
  public static let plain = CellStyle()

  /// Creates a style.
  ///
  /// - Parameters:
  ///   - foreground: The text colour, or `nil` for the default.
  ///   - background: The background colour, or `nil` for the default.
  ///   - attributes: Bold, dim, italic, underline, reverse.
  public init(
    foreground: CellColor? = nil, background: CellColor? = nil, attributes: CellAttributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }
}

/// A cell colour: one of the eight standard terminal colours (or its bright variant), an
/// entry of the 256-colour palette, or a 24-bit colour. Every value is valid on any
/// terminal that supports its kind.
public enum CellColor: Hashable, Sendable {
  /// One of the eight standard colours.
  case standard(StandardColor)
  /// The bright variant of a standard colour.
  case bright(StandardColor)
  /// An entry of the 256-colour palette.
  case palette(UInt8)
  /// A 24-bit colour.
  case rgb(red: UInt8, green: UInt8, blue: UInt8)

  /// The eight standard terminal colours, in ANSI order.
  public enum StandardColor: UInt8, Hashable, Sendable, CaseIterable {
    /// ANSI colour 0.
    case black
    /// ANSI colour 1.
    case red
    /// ANSI colour 2.
    case green
    /// ANSI colour 3.
    case yellow
    /// ANSI colour 4.
    case blue
    /// ANSI colour 5.
    case magenta
    /// ANSI colour 6.
    case cyan
    /// ANSI colour 7.
    case white
  }
}

/// Text attributes of a cell.
public struct CellAttributes: OptionSet, Hashable, Sendable {
  /// The attribute bits.
  public let rawValue: UInt8
  /// Creates attributes from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bold (or bright) text.
  public static let bold = CellAttributes(rawValue: 1 << 0)
  /// Dim text.
  public static let dim = CellAttributes(rawValue: 1 << 1)
  /// Italic text.
  public static let italic = CellAttributes(rawValue: 1 << 2)
  /// Underlined text.
  public static let underline = CellAttributes(rawValue: 1 << 3)
  /// Foreground and background swapped.
  public static let reverse = CellAttributes(rawValue: 1 << 4)
}

extension CellStyle {
  /// The style with `attribute` (or several) added: a selected row's look from its own,
  /// say.
  ///
  ///     let selected = itemStyle.adding(.reverse)
  ///     let heading = CellStyle(foreground: .standard(.cyan)).adding([.bold, .underline])
  ///
  /// - Parameter attribute: The attributes to add to the ones the style has.
  /// - Returns: The style with them.
  public func adding(_ attribute: CellAttributes) -> CellStyle {
    var style = self
    style.attributes.insert(attribute)
    return style
  }
}
