import Invalidation

// Test nodes, the same as InvalidationTests' (RenderLoopTests.swift).

/// A node that lays its subnodes out in a column and counts its phases.
final class Column: HeadlessNode {
  @Invalidating(.layout) var spacing = 0
  @Invalidating(.display) var title = ""
  /// Run inside `layout()`, to invalidate things during a pass.
  var duringLayout: (() -> Void)?

  override func layout() {
    duringLayout?()
    var y = 0
    for node in subnodes {
      node.frame = Rect(x: 0, y: y, width: frame.size.width, height: 1)
      y += 1 + spacing
    }
  }

  override func draw(in canvas: inout TextCanvas) { canvas.draw(title, at: .zero) }
}

/// One line of text.
final class TextLine: HeadlessNode {
  @Invalidating(.display) var text = ""
  @Invalidating(.layout) var padding = 0
  override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero) }
}
