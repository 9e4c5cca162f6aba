/// One line of text, aligned in the node's width and cut at its edge: a title, a status
/// line, a count.
///
///     let status = TextLabel("3 items", alignment: .trailing)
///     status.text = "4 items"               // redraws on the next pass
///
/// Columns are counted as the terminal counts them, and a wide character cut by the edge
/// leaves a space (see ``TextCanvas/draw(_:in:alignment:style:)``).
///
/// - Note: Like every node, confined to the thread that runs its render loop.
open class TextLabel: HeadlessNode {
  /// The text, drawn on the first row.
  public var text: String {
    didSet {
      guard text != oldValue else { return }
      setNeedsDisplay()
      invalidateIntrinsicContentSize()
    }
  }

  /// Where the text sits in the node's width.
  public var alignment: TextAlignment {
    didSet { if alignment != oldValue { setNeedsDisplay() } }
  }

  /// The look of the text.
  public var style: CellStyle {
    didSet { if style != oldValue { setNeedsDisplay() } }
  }

  /// Creates a label.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - alignment: Where the text sits in the node's width; leading by default.
  ///   - style: The look of the text; plain by default.
  ///   - name: A name for debugging output.
  ///   - frame: The label's rectangle; it draws on the first row.
  public init(
    _ text: String = "", alignment: TextAlignment = .leading, style: CellStyle = .plain,
    name: String? = nil, frame: Rect = .zero
  ) {
    self.text = text
    self.alignment = alignment
    self.style = style
    super.init(name: name, frame: frame)
  }

  /// As wide as the text, one row.
  open override var intrinsicContentSize: Size {
    Size(width: text.terminalColumns, height: 1)
  }

  /// Draws the text aligned and clipped on the first row.
  open override func draw(in canvas: inout TextCanvas) {
    canvas.draw(text, in: bounds, alignment: alignment, style: style)
  }
}
