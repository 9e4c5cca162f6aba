import Ripple

/// A framed panel with a title; its subnodes stack vertically inside the frame.
final class Panel: HeadlessNode {
  @Invalidating(.display) var title = ""
  /// The frame's colour in the terminal app; plain-text frames ignore it.
  @Invalidating(.display) var accent = CellStyle.plain

  override func layout() {
    // Inside the border, one column of padding on each side; never a negative width,
    // however small the terminal.
    let inside = bounds.insetBy(dx: 2, dy: 1)
    var y = inside.origin.y
    for node in subnodes {
      node.frame = Rect(
        x: inside.origin.x, y: y, width: inside.size.width,
        height: node.intrinsicContentSize.height)
      y += node.frame.size.height
    }
  }

  override func draw(in canvas: inout TextCanvas) {
    canvas.drawBox(in: bounds, style: accent)
    canvas.draw(
      " \(title) ", at: Point(x: 2, y: 0), width: max(0, bounds.size.width - 4), style: accent)
  }
}

/// One line of text.
final class Label: HeadlessNode {
  @Invalidating(.display) var text = ""
  override var intrinsicContentSize: Size { Size(width: text.terminalColumns, height: 1) }
  override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero) }
}

/// A counter with a prefix that comes from the theme.
final class CounterView: HeadlessNode {
  @Invalidating(.display) var value = 0
  @Invalidating(.display) var prefix = "count"
  override var intrinsicContentSize: Size { Size(width: 20, height: 1) }
  override func draw(in canvas: inout TextCanvas) { canvas.draw("\(prefix): \(value)", at: .zero) }
}

/// A progress bar drawn with the theme's fill characters.
final class ProgressBar: HeadlessNode {
  @Invalidating(.display) var progress = 0.0
  @Invalidating(.display) var fill = "█"
  @Invalidating(.display) var empty = "░"
  @Invalidating(.display) var caption = "downloads"
  override var intrinsicContentSize: Size { Size(width: 30, height: 1) }

  override func draw(in canvas: inout TextCanvas) {
    let width = max(0, bounds.size.width - caption.terminalColumns - 8)
    let filled = Int((min(1, max(0, progress)) * Double(width)).rounded())
    let bar =
      String(repeating: fill, count: filled) + String(repeating: empty, count: width - filled)
    canvas.draw("\(caption) \(bar) \(Int(progress * 100))%", at: .zero)
  }
}
