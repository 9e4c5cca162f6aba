import Invalidation
import ReactiveCore
import Testing

/// A node that counts its override points and lays its children out in a row.
private final class Row: HeadlessNode {
  @Invalidating(.layout) var spacing = 1
  @Invalidating(.display) var title = "row"
  @Invalidating(.constraints) var minimumWidth = 0
  var events: [String] = []

  override func updateConstraints() { events.append("constraints \(name)") }
  override func layout() {
    events.append("layout \(name)")
    var x = 0
    for node in subnodes {
      node.frame = Rect(x: x, y: 0, width: node.intrinsicContentSize.width, height: 1)
      x += node.frame.size.width + spacing
    }
  }
  override func draw(in canvas: inout TextCanvas) {
    events.append("draw \(name)")
    canvas.draw(title, at: .zero)
  }
}

private final class Label: HeadlessNode {
  @Invalidating(.display, .intrinsicContentSize) var text = ""
  override var intrinsicContentSize: Size { Size(width: text.count, height: 1) }
  override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero) }
}

@Suite struct HeadlessNodeTests {
  @Test func renderPassRunsConstraintsThenLayoutThenDisplay() {
    let row = Row(name: "row", frame: Rect(x: 0, y: 0, width: 20, height: 2))
    row.renderPass()
    row.events.removeAll()
    row.minimumWidth = 3
    row.spacing = 2
    row.title = "new"
    row.renderPass()
    #expect(row.events == ["constraints row", "layout row", "draw row"])
  }

  @Test func thousandSetsCoalesceIntoOneLayout() {
    let row = Row(name: "row", frame: Rect(x: 0, y: 0, width: 20, height: 2))
    row.renderPass()
    let before = row.layoutCount
    for step in 0..<1_000 { row.spacing = step + 2 }
    let report = row.renderPass()
    #expect(row.layoutCount == before + 1)
    #expect(report.laidOut == 1)
    #expect(report.drawn == 0)
  }

  @Test func cleanTreeDoesNothing() {
    let row = Row(frame: Rect(x: 0, y: 0, width: 10, height: 1))
    row.renderPass()
    let report = row.renderPass()
    #expect(report.laidOut == 0)
    #expect(report.drawn == 0)
    #expect(report.nodes == 1)
  }

  @Test func intrinsicSizeChangeDirtiesTheParentLayout() {
    let row = Row(name: "row", frame: Rect(x: 0, y: 0, width: 30, height: 1))
    let first = Label(frame: .zero)
    let second = Label(frame: .zero)
    first.text = "ab"
    second.text = "cd"
    row.addSubnode(first)
    row.addSubnode(second)
    row.renderPass()
    #expect(second.frame.origin.x == 3)
    first.text = "abcdef"
    #expect(row.needsLayout)
    row.renderPass()
    #expect(second.frame.origin.x == 7)
    #expect(row.snapshot().lines.first == "abcdef cd")
  }

  @Test func layoutIfNeededAndDisplayIfNeeded() {
    let row = Row(name: "row", frame: Rect(x: 0, y: 0, width: 10, height: 1))
    row.layoutIfNeeded()
    #expect(!row.needsLayout)
    #expect(row.displayIfNeeded())
    #expect(!row.displayIfNeeded())
  }

  @Test func nodesPublishTheInvalidationsTheyReceive() {
    let label = Label(frame: Rect(x: 0, y: 0, width: 5, height: 1))
    var received: [InvalidationKind] = []
    let cancellable = label.invalidations.sink { received.append($0) }
    label.text = "hi"
    #expect(received == [.display, .intrinsicContentSize])
    cancellable.cancel()
  }

  @Test func treeStructure() {
    let root = Row(name: "root", frame: Rect(x: 0, y: 0, width: 10, height: 1))
    let child = Label(name: "child")
    root.addSubnode(child)
    #expect(child.parent === root)
    #expect(root.subnodes.count == 1)
    let other = Row(name: "other")
    other.addSubnode(child)
    #expect(root.subnodes.isEmpty)
    #expect(child.parent === other)
    child.removeFromParent()
    #expect(child.parent == nil)
    #expect(root.debugDescription.hasPrefix("root"))
  }

  @Test func aNodeWithSubscribersIsReleasedWhenDropped() {
    weak var weakNode: Label?
    var received: [InvalidationKind] = []
    var completed = false
    var cancellable: AnyCancellable?
    do {
      let node = Label(frame: Rect(x: 0, y: 0, width: 3, height: 1))
      weakNode = node
      cancellable = node.invalidations.sink(
        receiveCompletion: { _ in completed = true }, receiveValue: { received.append($0) })
      node.text = "x"
    }
    #expect(weakNode == nil)
    #expect(completed)
    #expect(received == [.display, .intrinsicContentSize])
    _ = cancellable
  }

  @Test func droppedSubtreeIsReleased() {
    let root = Row(frame: Rect(x: 0, y: 0, width: 5, height: 1))
    weak var weakChild: Label?
    do {
      let child = Label()
      weakChild = child
      root.addSubnode(child)
      root.renderPass()
      child.removeFromParent()
    }
    #expect(weakChild == nil)
  }
}

/// A node redraws into the storage of its last layer: each drawing must still start from
/// a blank canvas, and a frame composited earlier must keep what it showed.
@Suite struct LayerReuseTests {
  @Test func aRedrawStartsBlankAndLeavesEarlierFramesAsTheyWere() {
    let root = HeadlessNode(frame: Rect(x: 0, y: 0, width: 8, height: 1))
    let label = Label()
    label.frame = Rect(x: 0, y: 0, width: 8, height: 1)
    root.addSubnode(label)
    label.text = "👍🏽 e\u{301}中 wide"
    label.displayIfNeeded()
    let first = root.snapshot()
    let layerBefore = label.snapshot()
    label.text = "ab"
    label.displayIfNeeded()
    #expect(root.snapshot().lines == ["ab"])
    #expect(root.snapshot().style(at: Point(x: 5, y: 0)) == .plain)
    #expect(first.lines == ["👍🏽 é中 w"])
    #expect(layerBefore.lines == ["👍🏽 é中 w"])
    label.frame = Rect(x: 0, y: 0, width: 3, height: 1)  // another size: a new layer
    label.text = "xyz"
    label.displayIfNeeded()
    #expect(root.snapshot().lines == ["xyz"])
  }
}

@Suite struct TextCanvasTests {
  @Test func drawsBoxesAndClipsText() {
    var canvas = TextCanvas(size: Size(width: 6, height: 3))
    canvas.drawBox(in: Rect(x: 0, y: 0, width: 6, height: 3))
    canvas.draw("hello world", at: Point(x: 1, y: 1), width: 4)
    #expect(canvas.lines == ["┌────┐", "│hell│", "└────┘"])
    canvas.set("x", at: Point(x: 99, y: 99))
    #expect(canvas[Point(x: 99, y: 99)] == nil)
  }
}

@Suite struct CellStyleTests {
  @Test func stylesAreDrawnRestyledAndCompositedWithTheirCells() {
    let bold = CellStyle(foreground: .bright(.green), attributes: .bold)
    var canvas = TextCanvas(size: Size(width: 4, height: 2))
    canvas.draw("ab", at: .zero, style: bold)
    #expect(canvas.style(at: Point(x: 1, y: 0)) == bold)
    #expect(canvas.style(at: Point(x: 2, y: 0)) == .plain)
    #expect(canvas.style(at: Point(x: 9, y: 9)) == nil)
    canvas.apply(.plain, in: Rect(x: 1, y: -5, width: 99, height: 99))
    #expect(canvas.style(at: Point(x: 0, y: 0)) == bold)
    #expect(canvas.style(at: Point(x: 1, y: 0)) == .plain)
    canvas.apply(bold, in: Rect(x: 9, y: 9, width: 2, height: 2))  // outside: ignored
    var larger = TextCanvas(size: Size(width: 6, height: 3))
    larger.composite(canvas, at: Point(x: 1, y: 1))
    #expect(larger.style(at: Point(x: 1, y: 1)) == bold)
    #expect(larger[Point(x: 2, y: 1)] == "b")
    #expect(larger.lines == ["", " ab", ""])
  }
}
