import Invalidation

/// The ANSI escape sequences the terminal backend writes, as bytes.
enum ANSI {
  static let escape: UInt8 = 0x1B

  /// Moves the cursor to a zero-based cell: `ESC [ row ; column H`.
  static func moveCursor(toColumn column: Int, row: Int, into bytes: inout [UInt8]) {
    bytes += [escape, 0x5B]
    appendDecimal(row + 1, to: &bytes)
    bytes.append(0x3B)
    appendDecimal(column + 1, to: &bytes)
    bytes.append(0x48)
  }

  /// Selects a style, starting from a reset so no earlier attribute lingers:
  /// `ESC [ 0 ; … m`.
  static func select(_ style: CellStyle, into bytes: inout [UInt8]) {
    bytes += [escape, 0x5B, 0x30]
    func parameter(_ value: Int) {
      bytes.append(0x3B)
      appendDecimal(value, to: &bytes)
    }
    let attributes: [(CellAttributes, Int)] = [
      (.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7),
    ]
    for (attribute, code) in attributes where style.attributes.contains(attribute) {
      parameter(code)
    }
    if let foreground = style.foreground { color(foreground, base: 30, parameter) }
    if let background = style.background { color(background, base: 40, parameter) }
    bytes.append(0x6D)
  }

  private static func color(_ color: CellColor, base: Int, _ parameter: (Int) -> Void) {
    switch color {
    case .standard(let standard): parameter(base + Int(standard.rawValue))
    case .bright(let standard): parameter(base + 60 + Int(standard.rawValue))
    case .palette(let index):
      parameter(base + 8)
      parameter(5)
      parameter(Int(index))
    case .rgb(let red, let green, let blue):
      parameter(base + 8)
      parameter(2)
      parameter(Int(red))
      parameter(Int(green))
      parameter(Int(blue))
    }
  }

  static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
    if value >= 10 { appendDecimal(value / 10, to: &bytes) }
    bytes.append(0x30 + UInt8(value % 10))
  }

  /// `ESC [ 0 m`: back to the default style.
  static let resetStyle: [UInt8] = Array("\u{1B}[0m".utf8)
  /// Clears the screen (`ESC [ 2 J`) in the default style.
  static let clearScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[2J".utf8)
  /// Switches to the alternate screen, hides the cursor, clears, and turns on bracketed
  /// paste.
  static let enterFullScreen: [UInt8] = Array(
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J\u{1B}[?2004h".utf8)
  /// Turns off mouse reporting and bracketed paste, resets the style, shows the cursor
  /// and leaves the alternate screen.
  static let leaveFullScreen: [UInt8] = Array(
    "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
  /// Turns on mouse reporting: button presses, releases and drags (1002), in the SGR
  /// encoding (1006), which has no limit on the column and row.
  static let enableMouse: [UInt8] = Array("\u{1B}[?1002h\u{1B}[?1006h".utf8)
  /// Turns mouse reporting off.
  static let disableMouse: [UInt8] = Array("\u{1B}[?1006l\u{1B}[?1002l".utf8)
}
