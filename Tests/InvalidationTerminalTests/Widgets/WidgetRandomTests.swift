import Invalidation
import InvalidationTerminal
import ModelTesting
import Testing

/// Thousands of seeded random steps over a screen built from every widget: frames of any
/// size (negative, zero, huge), text of any width, every key the widgets take, and
/// passes. Nothing traps, every drawn row stays within the root's width, and the
/// selection and cursor stay in range.
@Suite struct WidgetRandomTests {
  static let texts = ["", "a", "milk", "買い物 🛒", "👍🏽 done", "e\u{301}", "한국어", "🇯🇵🇫🇷", "\t\u{1B}[2J"]
  static let keys: [TerminalKey] = [
    .character("x"), .character("買"), .backspace, .delete, .left, .right, .home, .end,
    .up, .down, .pageUp, .pageDown, .control("w"), .control("u"), .control("k"),
    .paste("a\nb 🛒"), .enter, .escape,
    .mouse(TerminalMouseEvent(kind: .press, button: .left, point: Point(x: 3, y: 4))),
    .mouse(TerminalMouseEvent(kind: .scrollDown, button: .none, point: .zero)),
  ]
  static let sides = [-5, 0, 1, 2, 3, 7, 40, 81, Int.min]
  /// Huge sides are clamped to the canvas's maximum: drawn once in a while, as each pass
  /// then fills two million cells.
  static let hugeSides = [5_000, Int.max]

  @Test(arguments: [1, 2, 3])
  func randomSizesTextAndKeysNeverTrapOrOverflow(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    let root = StackView(.vertical, spacing: 1)
    let title = TextLabel("Todo", alignment: .center)
    let row = StackView(.horizontal, spacing: 2)
    let list = ListView(items: ["a", "買い物 🛒"])
    let input = TextInput()
    row.addSubnode(list)
    row.addSubnode(TextLabel("side", alignment: .trailing), length: .fixed(6))
    root.addSubnode(title, length: .fixed(1))
    root.addSubnode(row)
    root.addSubnode(input, length: .fixed(1))
    for step in 0..<3_000 {
      switch Int.random(in: 0..<6, using: &random) {
      case 0:
        let huge = Int.random(in: 0..<100, using: &random) == 0
        let width = (huge ? Self.hugeSides : Self.sides).randomElement(using: &random)!
        let height = Self.sides.randomElement(using: &random)!
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
      case 1:
        list.items = (0..<Int.random(in: 0..<30, using: &random)).map { _ in
          ListView.Item(Self.texts.randomElement(using: &random)!)
        }
      case 2: input.text = Self.texts.randomElement(using: &random)!
      case 3: title.text = Self.texts.randomElement(using: &random)!
      default:
        let key = Self.keys.randomElement(using: &random)!
        _ = Bool.random(using: &random) ? list.handle(key) : input.handle(key)
      }
      guard step % 3 == 0 || step > 2_990 else { continue }
      root.renderPass()
      let canvas = root.snapshot()
      #expect(canvas.size == root.frame.size)
      #expect(canvas.lines.allSatisfy { $0.terminalColumns <= canvas.size.width })
      #expect(input.cursor >= 0 && input.cursor <= input.text.count)
      #expect(list.selection == nil ? list.items.isEmpty : list.selection! < list.items.count)
    }
  }
}
