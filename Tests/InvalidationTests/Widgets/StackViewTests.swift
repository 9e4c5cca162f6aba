import Invalidation
import Testing

@Suite struct StackViewTests {
  @Test func aVerticalStackGivesFixedRowsFirstAndTheRestToTheFills() {
    let stack = StackView(.vertical, frame: Rect(x: 0, y: 0, width: 10, height: 8))
    let title = TextLabel("Todo")
    let content = TextLabel("a")
    let status = TextLabel("1 item", alignment: .trailing)
    stack.addSubnode(title, length: .fixed(1))
    stack.addSubnode(content)
    stack.addSubnode(status, length: .fixed(1))
    stack.renderPass()
    #expect(title.frame == Rect(x: 0, y: 0, width: 10, height: 1))
    #expect(content.frame == Rect(x: 0, y: 1, width: 10, height: 6))
    #expect(status.frame == Rect(x: 0, y: 7, width: 10, height: 1))
    #expect(stack.snapshot().lines == ["Todo", "a", "", "", "", "", "", "    1 item"])
  }

  @Test func aHorizontalStackSplitsColumnsWithSpacing() {
    let stack = StackView(.horizontal, spacing: 1, frame: Rect(x: 0, y: 0, width: 11, height: 2))
    let left = HeadlessNode()
    let right = HeadlessNode()
    stack.addSubnode(left, length: .fill(1))
    stack.addSubnode(right, length: .fill(1))
    stack.renderPass()
    #expect(left.frame == Rect(x: 0, y: 0, width: 5, height: 2))
    #expect(right.frame == Rect(x: 6, y: 0, width: 5, height: 2))
    stack.setLength(.fixed(2), of: left)
    #expect(stack.length(of: left) == .fixed(2))
    stack.renderPass()
    #expect(right.frame == Rect(x: 3, y: 0, width: 8, height: 2))
  }

  @Test(arguments: [-3, 0, 1, 2])
  func aTinyStackGivesNoNegativeSizes(side: Int) {
    let stack = StackView(.vertical, spacing: 2, frame: Rect(x: 0, y: 0, width: side, height: side))
    let nodes = (0..<3).map { _ in TextLabel("…") }
    stack.addSubnode(nodes[0], length: .fixed(5))
    stack.addSubnode(nodes[1])
    stack.addSubnode(nodes[2], length: .fixed(1))
    stack.renderPass()
    #expect(nodes.allSatisfy { $0.frame.size.width >= 0 && $0.frame.size.height >= 0 })
    #expect(stack.snapshot().size == Size(width: max(0, side), height: max(0, side)))
  }
}

@Suite struct TextLabelTests {
  @Test func aLabelAlignsItsTextAndSizesToIt() {
    let label = TextLabel(
      "3 items", alignment: .trailing, frame: Rect(x: 0, y: 0, width: 10, height: 1))
    #expect(rendered(label) == ["   3 items"])
    #expect(label.intrinsicContentSize == Size(width: 7, height: 1))
    label.text = "買い物"
    label.alignment = .center
    #expect(rendered(label) == ["  買い物"])
    #expect(label.intrinsicContentSize == Size(width: 6, height: 1))
  }
}
