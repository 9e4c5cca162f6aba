import Invalidation
import Testing

@Suite struct TextLabelSpanTests {
  static let red = CellStyle(foreground: .standard(.red), attributes: .bold)

  /// A label of spans draws each run in its own style, aligned and cut as one line.
  @Test func spansDrawInTheirOwnStyles() {
    let label = TextLabel(frame: Rect(x: 0, y: 0, width: 12, height: 1))
    label.spans = [TextSpan("ERR", style: Self.red), " disk full"]
    #expect(label.text == "ERR disk full")
    #expect(rendered(label) == ["ERR disk ful"])
    let canvas = label.snapshot()
    #expect(canvas.style(at: Point(x: 0, y: 0)) == Self.red)
    #expect(canvas.style(at: Point(x: 2, y: 0)) == Self.red)
    #expect(canvas.style(at: Point(x: 3, y: 0)) == .plain)
  }

  @Test func trailingAlignmentAppliesToTheWholeLine() {
    let label = TextLabel(alignment: .trailing, frame: Rect(x: 0, y: 0, width: 8, height: 1))
    label.spans = [TextSpan("3", style: Self.red), " items"]
    #expect(rendered(label) == ["3 items"].map { " " + $0 })
    #expect(label.snapshot().style(at: Point(x: 1, y: 0)) == Self.red)
  }

  /// Setting the text replaces the spans with one span in the label's style.
  @Test func settingTheTextReplacesTheSpans() {
    let label = TextLabel(frame: Rect(x: 0, y: 0, width: 12, height: 1))
    label.spans = [TextSpan("ERR", style: Self.red), " x"]
    label.text = "fine"
    #expect(label.spans == [TextSpan("fine")])
    #expect(label.snapshot().style(at: Point(x: 0, y: 0)) == .plain)
  }

  /// With a tab width, tabs become the spaces to the next stop, counted from the line's
  /// start across spans; without one, the tab stays a tab in the canvas (which the
  /// backends show as `?`).
  @Test func tabsExpandToTheNextStop() {
    let label = TextLabel("a\tb", frame: Rect(x: 0, y: 0, width: 12, height: 1))
    #expect(rendered(label) == ["a\tb"])
    label.tabWidth = 4
    #expect(rendered(label) == ["a   b"])
    label.spans = ["ab", TextSpan("\tc", style: Self.red)]
    #expect(rendered(label) == ["ab  c"])
    #expect(label.intrinsicContentSize.width == 5)
  }

  @Test(arguments: [
    ("a\tb", 4, "a   b"), ("abcd\te", 4, "abcd    e"), ("\t", 8, "        "),
    ("買\tx", 4, "買  x"), ("a\nb\tc", 2, "a\nb c"), ("a\tb", 0, "a b"),
  ])
  func expandingTabs(text: String, width: Int, expected: String) {
    #expect(text.expandingTabs(every: width) == expected)
  }
}
