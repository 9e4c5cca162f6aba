import Invalidation

/// A one-line text input: a cursor, insertion and deletion, the editing keys terminal users
/// expect, and text of any width, scrolled sideways to keep the cursor in view.
///
///     let input = TextInput(placeholder: "What needs doing?")
///     app.focus = input                    // typed keys edit the field
///     _ = input.handle(.character("h"))     // what the app does for you
///     input.text                            // "h"
///
/// Keys it takes (``handle(_:)`` returns `true`): printable characters and pastes (a
/// pasted line break or tab becomes a space, a control character is dropped), Backspace,
/// Delete, Left, Right, Home, End, Ctrl-A and Ctrl-E (start and end), Ctrl-U and Ctrl-K
/// (delete to the start and to the end), Ctrl-W and Alt-Backspace (delete the word before
/// the cursor), Alt-Left/Alt-B and Alt-Right/Alt-F (move by word). Enter, Escape, Tab,
/// Up and Down are left to the app, which decides what submitting or leaving the field
/// means.
///
/// The cursor is a character index (``cursor``), drawn as a reversed cell while
/// ``showsCursor`` is on; the field draws on its first row. Columns are counted as the
/// terminal counts them (see `Character.terminalColumns`), so a wide character
/// takes two.
///
/// - Note: Like every node, confined to the thread that runs its render loop.
open class TextInput: HeadlessNode, KeyResponder {
  /// The text; setting it keeps the cursor inside it.
  public var text: String {
    didSet {
      guard text != oldValue else { return }
      characters = Array(text)
      cursor = min(cursor, characters.count)
      setNeedsDisplay()
    }
  }

  /// Where the cursor is, as a number of characters from the start: `0` is before the
  /// first, `text.count` after the last. Clamped to that range.
  public var cursor: Int {
    didSet {
      let clamped = min(max(0, cursor), characters.count)
      if clamped != cursor { cursor = clamped }
      if cursor != oldValue { setNeedsDisplay() }
    }
  }

  /// What the field shows, dimmed, while its text is empty.
  public var placeholder: String {
    didSet { if placeholder != oldValue { setNeedsDisplay() } }
  }

  /// The look of the text.
  public var style: CellStyle = .plain {
    didSet { if style != oldValue { setNeedsDisplay() } }
  }

  /// The look of the placeholder; dim by default.
  public var placeholderStyle = CellStyle(attributes: .dim) {
    didSet { if placeholderStyle != oldValue { setNeedsDisplay() } }
  }

  /// Whether the cursor is drawn (as a reversed cell). Turn it off while the field does
  /// not have the focus.
  public var showsCursor = true {
    didSet { if showsCursor != oldValue { setNeedsDisplay() } }
  }

  /// The text as characters, kept with ``text`` so that editing is by index.
  private var characters: [Character]
  /// The first character drawn, so that the cursor stays in view in a narrow field.
  private var firstVisible = 0

  /// Creates a field.
  ///
  /// - Parameters:
  ///   - text: The text to start with; the cursor starts after it.
  ///   - placeholder: What the field shows while empty.
  ///   - name: A name for debugging output.
  ///   - frame: The field's rectangle; it draws on the first row.
  public init(text: String = "", placeholder: String = "", name: String? = nil, frame: Rect = .zero)
  {
    self.text = text
    self.placeholder = placeholder
    characters = Array(text)
    cursor = characters.count
    super.init(name: name, frame: frame)
  }

  /// One row, as wide as the text and the cursor.
  open override var intrinsicContentSize: Size {
    Size(width: text.terminalColumns + 1, height: 1)
  }

  // MARK: Editing

  /// Inserts text at the cursor and moves the cursor after it. Line breaks and tabs
  /// become spaces, and other control characters are dropped, since the field holds one
  /// line.
  ///
  /// - Parameter inserted: The text to insert.
  public func insert(_ inserted: String) {
    let clean = inserted.compactMap(Self.lineCharacter)
    guard !clean.isEmpty else { return }
    characters.insert(contentsOf: clean, at: cursor)
    let newCursor = cursor + clean.count
    text = String(characters)
    cursor = newCursor
  }

  /// Deletes the characters in `range` (clamped to the text) and puts the cursor where
  /// they were.
  ///
  /// - Parameter range: Character indices, as ``cursor`` counts them.
  public func deleteCharacters(in range: Range<Int>) {
    let lower = min(max(0, range.lowerBound), characters.count)
    let upper = min(max(lower, range.upperBound), characters.count)
    guard lower < upper else { return }
    characters.removeSubrange(lower..<upper)
    text = String(characters)
    cursor = lower
  }

  /// Takes the editing keys listed in the type's description.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether the field took it.
  open func handle(_ key: TerminalKey) -> Bool {
    switch key {
    case .character(let character): insert(String(character))
    case .paste(let pasted): insert(pasted)
    case .backspace: deleteCharacters(in: cursor - 1..<cursor)
    case .delete: deleteCharacters(in: cursor..<cursor + 1)
    case .left: cursor -= 1
    case .right: cursor += 1
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .control("u"): deleteCharacters(in: 0..<cursor)
    case .control("k"): deleteCharacters(in: cursor..<characters.count)
    case .control("w"), .modified(.backspace, .alt): deleteCharacters(in: wordStart()..<cursor)
    case .modified(.left, .alt), .modified(.left, .control), .modified(.character("b"), .alt):
      cursor = wordStart()
    case .modified(.right, .alt), .modified(.right, .control), .modified(.character("f"), .alt):
      cursor = wordEnd()
    default: return false
    }
    return true
  }

  /// The start of the word before the cursor: back over spaces, then over the word.
  private func wordStart() -> Int {
    var index = cursor
    while index > 0, characters[index - 1].isWhitespace { index -= 1 }
    while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
    return index
  }

  /// The end of the word after the cursor: on over spaces, then over the word.
  private func wordEnd() -> Int {
    var index = cursor
    while index < characters.count, characters[index].isWhitespace { index += 1 }
    while index < characters.count, !characters[index].isWhitespace { index += 1 }
    return index
  }

  /// A character as it goes into one line: a line break or tab as a space, another
  /// control character not at all.
  private static func lineCharacter(_ character: Character) -> Character? {
    if character.isNewline || character == "\t" { return " " }
    let isControl = character.unicodeScalars.contains {
      $0.properties.generalCategory == .control
    }
    return isControl ? nil : character
  }

  // MARK: Drawing

  /// Draws the visible part of the text (or the placeholder) and the cursor on the first
  /// row.
  open override func draw(in canvas: inout TextCanvas) {
    let width = bounds.size.width
    guard width > 0, bounds.size.height > 0 else { return }
    let cursorStyle = style.adding(.reverse)
    if characters.isEmpty {
      firstVisible = 0
      canvas.draw(placeholder, at: .zero, width: width, style: placeholderStyle)
      if showsCursor {
        canvas.set(placeholder.first ?? " ", at: .zero, style: placeholderStyle.adding(.reverse))
      }
      return
    }
    scrollToCursor(width: width)
    var x = 0
    for index in firstVisible..<characters.count {
      let character = characters[index]
      let columns = max(1, character.terminalColumns)
      guard x + columns <= width else {
        if x < width { canvas.set(" ", at: Point(x: x, y: 0), style: style) }
        break
      }
      let isCursor = showsCursor && index == cursor
      canvas.set(character, at: Point(x: x, y: 0), style: isCursor ? cursorStyle : style)
      x += columns
    }
    if showsCursor, cursor == characters.count, x < width {
      canvas.set(" ", at: Point(x: x, y: 0), style: cursorStyle)
    }
  }

  /// Moves ``firstVisible`` so that the cursor's cell is in view, and so that no room is
  /// wasted at the right while text is hidden at the left.
  private func scrollToCursor(width: Int) {
    func columns(_ range: Range<Int>) -> Int {
      characters[range].reduce(0) { $0 + max(1, $1.terminalColumns) }
    }
    let cursorColumns = cursor < characters.count ? max(1, characters[cursor].terminalColumns) : 1
    firstVisible = min(firstVisible, cursor)
    while firstVisible < cursor, columns(firstVisible..<cursor) + cursorColumns > width {
      firstVisible += 1
    }
    let trailing = cursor == characters.count ? 1 : 0
    while firstVisible > 0,
      columns(firstVisible - 1..<characters.count) + trailing <= width
    {
      firstVisible -= 1
    }
  }
}
