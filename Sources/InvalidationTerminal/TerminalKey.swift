import Invalidation

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
  /// Insert.
  case insert
  /// A function key: `.function(1)` is F1, up to F12 (F13–F20 where a terminal sends
  /// them).
  case function(Int)
  /// A key pressed with modifiers: `.modified(.character("x"), .alt)` for Alt-x,
  /// `.modified(.tab, .shift)` for Shift-Tab, `.modified(.right, .control)` for
  /// Ctrl-Right, `.modified(.function(5), .shift)` for Shift-F5. Control with a letter
  /// alone stays ``control(_:)``; the modifiers are never empty.
  indirect case modified(TerminalKey, TerminalKeyModifiers)
  /// Text pasted while bracketed paste is on (a ``Terminal`` turns it on while open): the
  /// whole paste as one event, so that its newlines are not Enter and its letters not
  /// commands. A paste longer than one mebibyte arrives in several events.
  case paste(String)
  /// A mouse press, release, drag or scroll, when ``Terminal/reportsMouse`` is on.
  case mouse(TerminalMouseEvent)

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
    case .insert: "insert"
    case .function(let number): "f\(number)"
    case .modified(let key, let modifiers): "\(modifiers)-\(key)"
    case .paste(let text): "paste of \(text.count) characters"
    case .mouse(let event): "\(event)"
    }
  }
}

/// The modifier keys held with a key or a mouse event.
public struct TerminalKeyModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The modifier bits, as xterm numbers them (its parameter minus one).
  public let rawValue: UInt8
  /// Creates modifiers from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Shift.
  public static let shift = TerminalKeyModifiers(rawValue: 1 << 0)
  /// Alt (Option; Meta in many terminals' settings).
  public static let alt = TerminalKeyModifiers(rawValue: 1 << 1)
  /// Control.
  public static let control = TerminalKeyModifiers(rawValue: 1 << 2)
  /// Meta (a separate key on some keyboards and terminals).
  public static let meta = TerminalKeyModifiers(rawValue: 1 << 3)

  /// `ctrl-alt-shift`, in that order.
  public var description: String {
    let names: [(TerminalKeyModifiers, String)] = [
      (.control, "ctrl"), (.alt, "alt"), (.shift, "shift"), (.meta, "meta"),
    ]
    return names.filter { contains($0.0) }.map(\.1).joined(separator: "-")
  }
}

/// A mouse event reported by the terminal (SGR reporting, which ``Terminal/reportsMouse``
/// turns on): what happened, with which button, where, and the modifiers held.
public struct TerminalMouseEvent: Hashable, Sendable, CustomStringConvertible {
  /// What the mouse did.
  public enum Kind: Hashable, Sendable {
    /// A button went down.
    case press
    /// A button came up.
    case release
    /// The mouse moved with a button down.
    case drag
    /// The wheel turned up (away from the user).
    case scrollUp
    /// The wheel turned down.
    case scrollDown
    /// The wheel (or trackpad) scrolled left.
    case scrollLeft
    /// The wheel (or trackpad) scrolled right.
    case scrollRight
  }

  /// A mouse button.
  public enum Button: Hashable, Sendable {
    /// The left (primary) button.
    case left
    /// The middle button (or wheel click).
    case middle
    /// The right (secondary) button.
    case right
    /// No button: scrolling, or a terminal that does not say.
    case none
  }

  /// What happened.
  public var kind: Kind
  /// The button involved.
  public var button: Button
  /// The cell, zero-based: column `x`, row `y`.
  public var point: Point
  /// The modifiers held.
  public var modifiers: TerminalKeyModifiers

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - button: The button involved.
  ///   - point: The zero-based cell.
  ///   - modifiers: The modifiers held; none by default.
  public init(kind: Kind, button: Button, point: Point, modifiers: TerminalKeyModifiers = []) {
    self.kind = kind
    self.button = button
    self.point = point
    self.modifiers = modifiers
  }

  /// `mouse press left at (3, 4)`.
  public var description: String {
    let held = modifiers.isEmpty ? "" : " with \(modifiers)"
    return "mouse \(kind) \(button) at \(point)\(held)"
  }
}
