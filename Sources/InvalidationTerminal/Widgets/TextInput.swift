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
/// the cursor), Alt-Left/Alt-B and Alt-Right/Alt-F (move by word), and Enter while
/// ``onSubmit`` is set. Escape, Tab, Up and Down (and Enter without ``onSubmit``) are left
/// to the app, which decides what leaving the field means.
///
/// The field tells the app what the user did, so that it never needs to watch the keys
/// the field takes: ``onChange`` runs after every change of the text (a key, a paste, or
/// the app setting ``text``), and ``onSubmit`` when Enter is pressed.
///
///     input.onChange = { text in results.items = search(text) }   // a live filter
///     input.onSubmit = { text in add(text); input.text = "" }
///
/// Editing costs what it changes, not the length of the text: a key at the end of a
/// million characters, its drawing included, does not look at the other characters
/// (reading ``text`` builds the string once per change).
///
/// The cursor is a character index (``cursor``), drawn as a reversed cell while
/// ``showsCursor`` is on; the field draws on its first row. Columns are counted as the
/// terminal counts them (see `Character.terminalColumns`), so a wide character
/// takes two.
///
/// - Note: Like every node, confined to the thread that runs its render loop.
open class TextInput: HeadlessNode, KeyResponder {
  /// The text; setting it keeps the cursor inside it, and calls ``onChange`` when it
  /// differs.
  public var text: String {
    get {
      if let cachedText { return cachedText }
      let built = String(characters)
      cachedText = built
      return built
    }
    set {
      guard newValue != text else { return }
      characters = Array(newValue)
      totalColumns = characters.reduce(0) { $0 + Self.columns(of: $1) }
      cachedText = newValue
      cursor = min(cursor, characters.count)
      textChanged()
    }
  }

  /// Called after every change of ``text`` — by a key the field took, a paste, or the
  /// app — with the new text, on the thread that runs the field's render loop.
  public var onChange: ((String) -> Void)?

  /// Called with the text when Enter is pressed while the field has the focus. While it
  /// is set, the field takes Enter; while it is `nil`, Enter goes on to the app's
  /// `onKey`.
  public var onSubmit: ((String) -> Void)?

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

  /// The text as characters: what editing changes, by index. ``text`` is built from it
  /// when read, once per change.
  private var characters: [Character]
  /// ``text``, once built since the last change.
  private var cachedText: String?
  /// The columns of the whole text, kept with each edit (for ``intrinsicContentSize``).
  private var totalColumns = 0
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
    self.placeholder = placeholder
    characters = Array(text)
    cachedText = text
    cursor = characters.count
    super.init(name: name, frame: frame)
    totalColumns = characters.reduce(0) { $0 + Self.columns(of: $1) }
  }

  /// One row, as wide as the text and the cursor.
  open override var intrinsicContentSize: Size {
    Size(width: totalColumns + 1, height: 1)
  }

  /// The columns a character takes in the field: at least one (a zero-width one is drawn
  /// as a cell of its own).
  private static func columns(of character: Character) -> Int {
    max(1, character.terminalColumns)
  }

  /// After an edit: the text is built again when next read, the field redraws, and the
  /// app hears of it.
  private func textChanged() {
    cachedText = nil
    setNeedsDisplay()
    if let onChange { onChange(text) }
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
    if cursor == characters.count {
      characters.append(contentsOf: clean)
    } else {
      characters.insert(contentsOf: clean, at: cursor)
    }
    totalColumns += clean.reduce(0) { $0 + Self.columns(of: $1) }
    cursor += clean.count
    textChanged()
  }

  /// Deletes the characters in `range` (clamped to the text) and puts the cursor where
  /// they were.
  ///
  /// - Parameter range: Character indices, as ``cursor`` counts them.
  public func deleteCharacters(in range: Range<Int>) {
    let lower = min(max(0, range.lowerBound), characters.count)
    let upper = min(max(lower, range.upperBound), characters.count)
    guard lower < upper else { return }
    totalColumns -= characters[lower..<upper].reduce(0) { $0 + Self.columns(of: $1) }
    characters.removeSubrange(lower..<upper)
    cursor = lower
    textChanged()
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
    case .enter:
      guard let onSubmit else { return false }
      onSubmit(text)
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
  /// wasted at the right while text is hidden at the left. Looks at no more characters
  /// than fit in `width` (and the ones it scrolls past), whatever the text's length.
  private func scrollToCursor(width: Int) {
    let cursorColumns = cursor < characters.count ? Self.columns(of: characters[cursor]) : 1
    firstVisible = min(firstVisible, cursor)
    // The leftmost start that still shows the cursor: walk back from it while it fits.
    var earliest = cursor
    var used = cursorColumns
    while earliest > 0, used + Self.columns(of: characters[earliest - 1]) <= width {
      earliest -= 1
      used += Self.columns(of: characters[earliest])
    }
    firstVisible = max(firstVisible, earliest)
    // While the text from one character earlier to the end (and the cursor after it)
    // fits, show it: walk back from the end, at most `width` columns.
    let trailing = cursor == characters.count ? 1 : 0
    var start = characters.count
    var tail = trailing
    while start > 0, tail + Self.columns(of: characters[start - 1]) <= width {
      start -= 1
      tail += Self.columns(of: characters[start])
    }
    firstVisible = min(firstVisible, max(start, 0))
  }
}
