/// One line of text, aligned in the node's width and cut at its edge: a title, a status
/// line, a count.
///
///     let status = TextLabel("3 items", alignment: .trailing)
///     status.text = "4 items"               // redraws on the next pass
///
/// Columns are counted as the terminal counts them, and a wide character cut by the edge
/// leaves a space (see ``TextCanvas/draw(_:in:alignment:style:)``).
///
/// A status line that mixes colours sets ``spans`` instead of ``text``; ``tabWidth``
/// shows tabs as spaces to the next tab stop.
///
///     status.spans = [TextSpan("ERROR", style: CellStyle(foreground: .standard(.red))), " disk full"]
///
/// - Note: Like every node, confined to the thread that runs its render loop.
open class TextLabel: HeadlessNode {
  /// The text, drawn on the first row. Setting it replaces any ``spans``.
  public var text: String {
    didSet {
      guard text != oldValue || styledSpans != nil else { return }
      styledSpans = nil
      setNeedsDisplay()
      invalidateIntrinsicContentSize()
    }
  }

  /// The line as runs of text, each in its own style: ``text`` in ``style`` as one span
  /// until spans are set. Setting them sets ``text`` to their text, joined.
  public var spans: [TextSpan] {
    get { styledSpans ?? [TextSpan(text, style: style)] }
    set {
      guard newValue != spans else { return }
      let joined = newValue.map(\.text).joined()
      if joined != text { text = joined }
      styledSpans = newValue
      setNeedsDisplay()
    }
  }

  /// The spans set, if any.
  private var styledSpans: [TextSpan]?

  /// The distance between tab stops, in columns, to show tabs as spaces; `nil` (the
  /// default) shows a tab as the canvas shows any control character, `?`.
  public var tabWidth: Int? {
    didSet {
      guard tabWidth != oldValue else { return }
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
    guard tabWidth != nil else { return Size(width: text.terminalColumns, height: 1) }
    return Size(width: shownSpans.reduce(0) { $0 + $1.text.terminalColumns }, height: 1)
  }

  /// The spans as drawn: tabs expanded when ``tabWidth`` is set.
  private var shownSpans: [TextSpan] {
    guard let tabWidth else { return spans }
    // Expanded over the whole line, so that tab stops count from its start.
    var column = 0
    return spans.map { span in
      let prefix = String(repeating: " ", count: column)
      let expanded = String((prefix + span.text).expandingTabs(every: tabWidth).dropFirst(column))
      column += expanded.terminalColumns
      return TextSpan(expanded, style: span.style)
    }
  }

  /// Draws the text aligned and clipped on the first row.
  open override func draw(in canvas: inout TextCanvas) {
    // A plain label (no spans, no tab stops) draws its text directly: no span array is
    // built on every frame for the common case.
    guard styledSpans != nil || tabWidth != nil else {
      return canvas.draw(text, in: bounds, alignment: alignment, style: style)
    }
    canvas.draw(shownSpans, in: bounds, alignment: alignment)
  }
}
