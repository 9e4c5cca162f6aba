import Invalidation
import InvalidationTerminal
import ModelTesting
import Testing

@Suite struct TextInputReportingTests {
  /// `onChange` hears every change of the text — keys, a paste, the app setting it — and
  /// nothing that leaves the text as it was.
  @Test func onChangeHearsEveryChangeOfTheText() {
    let input = TextInput(text: "ab")
    var heard: [String] = []
    input.onChange = { heard.append($0) }
    _ = input.handle(.character("c"))
    _ = input.handle(.paste("d\ne"))
    _ = input.handle(.left)  // the cursor moves: no change
    _ = input.handle(.backspace)
    input.text = "new"
    input.text = "new"  // the same text: no change
    _ = input.handle(.backspace)
    #expect(heard == ["abc", "abcd e", "abcde", "new", "ne"])
  }

  /// While `onSubmit` is set the field takes Enter and hands over its text; without it,
  /// Enter goes on to the app.
  @Test func enterSubmitsOnlyWhileOnSubmitIsSet() {
    let input = TextInput(text: "milk")
    #expect(!input.handle(.enter))
    var submitted: [String] = []
    input.onSubmit = { submitted.append($0) }
    #expect(input.handle(.enter))
    #expect(submitted == ["milk"])
  }

  /// The app hears what the user typed through the focus: a live filter needs no
  /// subclass and no look at the keys.
  @Test func anAppHearsTheFocusedFieldThroughItsCallbacks() throws {
    let input = TextInput()
    var filter = ""
    input.onChange = { filter = $0 }
    for key: TerminalKey in [.character("q"), .character("u")] { _ = input.handle(key) }
    #expect(filter == "qu")
  }

  /// Scrolling to keep the cursor in view looks at what fits, not at the whole text,
  /// and shows exactly what the former whole-text computation showed: random text of
  /// narrow and wide characters, random widths, random cursor moves and edits.
  @Test(arguments: [1, 2, 3, 5, 8, 13])
  func scrollingMatchesTheWholeTextComputation(width: Int) {
    var generator = SeededGenerator(state: UInt64(width) &* 0x9E37_79B9)
    let alphabet: [Character] = ["a", "b", " ", "買", "🛒", "é"]
    let input = TextInput(frame: Rect(x: 0, y: 0, width: width, height: 1))
    var model = ScrollModel()
    for _ in 0..<400 {
      switch Int.random(in: 0..<6, using: &generator) {
      case 0, 1: _ = input.handle(.character(alphabet.randomElement(using: &generator)!))
      case 2: _ = input.handle(.left)
      case 3: _ = input.handle(.right)
      case 4: _ = input.handle(.backspace)
      default: input.cursor = Int.random(in: 0...input.text.count, using: &generator)
      }
      let expected = model.line(Array(input.text), cursor: input.cursor, width: width)
      #expect(rendered(input) == [expected], "text \(input.text), cursor \(input.cursor)")
    }
  }
}

/// The scrolling rule as it was first written, over the whole text on every draw: the
/// reference the linear one is checked against.
private struct ScrollModel {
  var firstVisible = 0

  static func columns(_ character: Character) -> Int { max(1, character.terminalColumns) }

  mutating func line(_ characters: [Character], cursor: Int, width: Int) -> String {
    guard !characters.isEmpty else {
      firstVisible = 0
      return ""
    }
    func columns(_ range: Range<Int>) -> Int {
      characters[range].reduce(0) { $0 + Self.columns($1) }
    }
    let cursorColumns = cursor < characters.count ? Self.columns(characters[cursor]) : 1
    firstVisible = min(firstVisible, cursor)
    while firstVisible < cursor, columns(firstVisible..<cursor) + cursorColumns > width {
      firstVisible += 1
    }
    let trailing = cursor == characters.count ? 1 : 0
    while firstVisible > 0, columns(firstVisible - 1..<characters.count) + trailing <= width {
      firstVisible -= 1
    }
    var line = ""
    var x = 0
    for index in firstVisible..<characters.count {
      let character = characters[index]
      let columns = Self.columns(character)
      guard x + columns <= width else {
        if x < width { line.append(" ") }
        x = width
        break
      }
      line.append(character)
      x += columns
    }
    if cursor == characters.count, x < width { line.append(" ") }
    // As `rendered` reads rows: without the blanks at the end.
    while line.last == " " { line.removeLast() }
    return line
  }
}
