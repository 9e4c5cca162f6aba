/// A key press read from a terminal in raw mode.
public enum TerminalKey: Hashable, Sendable, CustomStringConvertible {
  /// A printable character (including space).
  case character(Character)
  /// A letter typed with Control held: `.control("c")` for Ctrl-C (when the terminal
  /// delivers it as a key rather than as SIGINT).
  case control(Character)
  /// Return or Enter.
  case enter
  /// Tab.
  case tab
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// Escape on its own.
  case escape
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page up.
  case pageUp
  /// Page down.
  case pageDown
  /// Forward delete.
  case delete
  /// An escape sequence this parser does not know, as read.
  case unknown([UInt8])

  /// The key's name: `"q"`, `"ctrl-c"`, `"up"`, …
  public var description: String {
    switch self {
    case .character(let character): String(character)
    case .control(let character): "ctrl-\(character)"
    case .enter: "enter"
    case .tab: "tab"
    case .backspace: "backspace"
    case .escape: "escape"
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .home: "home"
    case .end: "end"
    case .pageUp: "page up"
    case .pageDown: "page down"
    case .delete: "delete"
    case .unknown(let bytes): "unknown \(bytes)"
    }
  }
}
