import Invalidation
import InvalidationTerminal
import Testing

@Suite struct TextInputTests {
  /// Keys typed into an input holding "ab|cd" (cursor after "ab"), and the text and
  /// cursor after them.
  struct EditCase: Sendable, CustomTestStringConvertible {
    var keys: [TerminalKey]
    var text: String
    var cursor: Int
    var taken = true
    var testDescription: String { keys.map(\.description).joined(separator: " ") }
  }

  static let editCases: [EditCase] = [
    EditCase(keys: [.character("x")], text: "abxcd", cursor: 3),
    EditCase(keys: [.character("q")], text: "abqcd", cursor: 3),
    EditCase(keys: [.backspace], text: "acd", cursor: 1),
    EditCase(keys: [.backspace, .backspace, .backspace], text: "cd", cursor: 0),
    EditCase(keys: [.delete], text: "abd", cursor: 2),
    EditCase(keys: [.left, .character("-")], text: "a-bcd", cursor: 2),
    EditCase(keys: [.right, .right, .right], text: "abcd", cursor: 4),
    EditCase(keys: [.home], text: "abcd", cursor: 0),
    EditCase(keys: [.end], text: "abcd", cursor: 4),
    EditCase(keys: [.control("a")], text: "abcd", cursor: 0),
    EditCase(keys: [.control("e")], text: "abcd", cursor: 4),
    EditCase(keys: [.control("u")], text: "cd", cursor: 0),
    EditCase(keys: [.control("k")], text: "ab", cursor: 2),
    EditCase(keys: [.paste("1\n2\t3\u{1B}")], text: "ab1 2 3cd", cursor: 7),
    EditCase(keys: [.character("買"), .character("🛒")], text: "ab買🛒cd", cursor: 4),
    EditCase(keys: [.enter], text: "abcd", cursor: 2, taken: false),
    EditCase(keys: [.escape], text: "abcd", cursor: 2, taken: false),
    EditCase(keys: [.up], text: "abcd", cursor: 2, taken: false),
    EditCase(keys: [.tab], text: "abcd", cursor: 2, taken: false),
  ]

  @Test(arguments: editCases)
  func editingKeysChangeTheTextAndTheCursor(edit: EditCase) {
    let input = TextInput(text: "abcd")
    input.cursor = 2
    var taken: [Bool] = []
    for key in edit.keys { taken.append(input.handle(key)) }
    #expect(input.text == edit.text)
    #expect(input.cursor == edit.cursor)
    #expect(taken.allSatisfy { $0 == edit.taken })
  }

  @Test func wordKeysMoveAndDeleteByWord() {
    let input = TextInput(text: "buy oat milk")
    #expect(input.handle(.control("w")))
    #expect(input.text == "buy oat ")
    #expect(input.handle(.modified(.backspace, .alt)))
    #expect(input.text == "buy ")
    input.text = "one two three"
    input.cursor = 0
    #expect(input.handle(.modified(.right, .alt)))
    #expect(input.cursor == 3)
    #expect(input.handle(.modified(.character("f"), .alt)))
    #expect(input.cursor == 7)
    #expect(input.handle(.modified(.left, .control)))
    #expect(input.cursor == 4)
  }

  @Test func settingTheTextKeepsTheCursorInsideIt() {
    let input = TextInput(text: "longer text")
    #expect(input.cursor == 11)
    input.text = "ab"
    #expect(input.cursor == 2)
    input.cursor = 99
    #expect(input.cursor == 2)
    input.cursor = -5
    #expect(input.cursor == 0)
  }

  @Test func drawsTheTextWithTheCursorAsAReversedCell() {
    let input = TextInput(text: "hi", frame: Rect(x: 0, y: 0, width: 6, height: 1))
    #expect(rendered(input) == ["hi"])  // lines drop trailing spaces
    let canvas = input.snapshot()
    #expect(canvas.style(at: Point(x: 2, y: 0))?.attributes.contains(.reverse) == true)
    #expect(canvas.style(at: Point(x: 1, y: 0))?.attributes.contains(.reverse) == false)
    input.showsCursor = false
    input.renderPass()
    #expect(input.snapshot().style(at: Point(x: 2, y: 0))?.attributes.contains(.reverse) == false)
  }

  @Test func anEmptyInputShowsItsPlaceholderDimmed() {
    let input = TextInput(
      placeholder: "What needs doing?", frame: Rect(x: 0, y: 0, width: 10, height: 1))
    #expect(rendered(input) == ["What needs"])
    #expect(input.snapshot().style(at: Point(x: 3, y: 0))?.attributes.contains(.dim) == true)
  }

  @Test func aNarrowInputScrollsToKeepTheCursorInView() {
    let input = TextInput(text: "買い物 🛒 list", frame: Rect(x: 0, y: 0, width: 6, height: 1))
    // The cursor is at the end: the last five columns of text, then the cursor's cell.
    #expect(rendered(input) == [" list"])
    #expect(input.snapshot().style(at: Point(x: 5, y: 0))?.attributes.contains(.reverse) == true)
    input.cursor = 0
    #expect(rendered(input) == ["買い物"])
    input.cursor = 3  // on the space after 物: 買い物 no longer fits with it
    // い物, the cursor on the space, and a space for the 🛒 that does not fit.
    #expect(rendered(input) == ["い物"])
    #expect(input.snapshot().style(at: Point(x: 4, y: 0))?.attributes.contains(.reverse) == true)
  }

  @Test(arguments: [0, 1, 2, 3])
  func anyWidthDrawsWithinItsBounds(width: Int) {
    let input = TextInput(text: "🛒🛒🛒", frame: Rect(x: 0, y: 0, width: width, height: 1))
    for cursor in 0...3 {
      input.cursor = cursor
      let lines = rendered(input)
      #expect(lines.allSatisfy { $0.terminalColumns <= width })
    }
  }
}
