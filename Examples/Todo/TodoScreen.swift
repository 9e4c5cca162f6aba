import Ripple

/// A box with a title on its top edge, laying its subnodes out inside the border.
final class Panel: HeadlessNode {
  var title: String {
    didSet { if title != oldValue { setNeedsDisplay() } }
  }

  init(title: String) {
    self.title = title
    super.init(name: "panel")
  }

  override func layout() {
    for node in subnodes { node.frame = bounds.insetBy(dx: 1, dy: 1) }
  }

  override func draw(in canvas: inout TextCanvas) {
    canvas.drawBox(in: bounds, style: CellStyle(foreground: .standard(.cyan)))
    canvas.draw(
      " \(title) ", in: Rect(x: 2, y: 0, width: bounds.size.width - 4, height: 1),
      style: CellStyle(attributes: .bold))
  }
}

/// The whole screen: a header, the list in a panel, the input row and the key help.
final class TodoScreen: StackView {
  let header = TextLabel(style: CellStyle(attributes: .bold))
  let panel = Panel(title: "Todo")
  let list = ListView(placeholder: "Nothing to do. Press a to add an item.")
  let prompt = TextLabel("New: ")
  let input = TextInput(placeholder: "type an item, Enter adds it, Esc goes back to the list")
  let help = TextLabel(style: CellStyle(attributes: .dim))

  init() {
    super.init(.vertical, name: "todo")
    panel.addSubnode(list)
    let inputRow = StackView(.horizontal, name: "input row")
    inputRow.addSubnode(prompt, length: .fixed(5))
    inputRow.addSubnode(input)
    addSubnode(header, length: .fixed(1))
    addSubnode(panel)
    addSubnode(inputRow, length: .fixed(1))
    addSubnode(help, length: .fixed(1))
  }
}
