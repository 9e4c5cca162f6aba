import Invalidation

/// A scrolling list of one-line items with a selection, as ratatui's `List` with a
/// `ListState` or Bubble Tea's `list`: the selected row is drawn reversed, and the list
/// scrolls only as far as it must to keep the selection in view.
///
///     let list = ListView(items: ["milk", "買い物 🛒", "call Ana"])
///     list.selection                       // 0: the first item, once there are items
///     _ = list.handle(.down)                // what the app does for you when it has the focus
///     list.selection                       // 1
///
/// Keys it takes (``handle(_:)`` returns `true`): Up, Down, Page Up, Page Down, Home, End,
/// the mouse wheel, a mouse press on a row (which selects it), and Enter while
/// ``onActivate`` is set. Every other key is left to the app.
///
/// The list tells the app what the user did, so that it never needs to watch the keys the
/// list takes: ``onSelectionChange`` runs after every change of the selection (a key, the
/// mouse, new items, or the app), ``onActivate`` when Enter is pressed on a row.
///
///     list.onSelectionChange = { index in details.text = index.map { lines[$0] } ?? "" }
///     list.onActivate = { index in pin(lines[index]) }
///
/// A log view follows its tail: with ``followsTail`` on, a selection on the last row
/// moves to the new last row as items are added; moving it up pauses the following, and
/// moving it back to the last row resumes it. Items with an ``Item/id`` keep their
/// selection by identity when the rows change (lines dropped from the front, a filter);
/// items without one keep it by index.
///
/// Items longer than the list is wide are cut at its edge (a wide character cut in half
/// leaves a space). While the list is empty it shows its ``placeholder``, dimmed.
///
/// - Note: Like every node, confined to the thread that runs its render loop.
open class ListView: HeadlessNode, KeyResponder {
  /// One row of a list: its text and its look.
  public struct Item: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The text, drawn on one row.
    public var text: String
    /// The look of the row when it is not selected.
    public var style: CellStyle
    /// What identifies an item across changes of ``ListView/items``: any `Hashable`
    /// and `Sendable` value (a line number, a key).
    public struct ID: Hashable, @unchecked Sendable {
      /// The value, type-erased. Unchecked `Sendable`: it is made only from a `Sendable`
      /// value.
      public let base: AnyHashable

      /// Wraps `value`.
      ///
      /// - Parameter value: What identifies the item.
      public init(_ value: some Hashable & Sendable) { base = AnyHashable(value) }
    }

    /// What identifies the item across changes of ``ListView/items``, if anything: the
    /// selection stays on the item with the selected item's id. `nil` by default.
    public var id: ID?
    /// The row as runs of text, each in its own style (a log line's level in colour),
    /// when the item was made from spans; ``text`` is their text, joined.
    public var spans: [TextSpan]?

    /// Creates an item drawn as runs of text in their own styles.
    ///
    ///     ListView.Item(spans: [TextSpan("WARN", style: yellow), " cache is cold"], id: 42)
    ///
    /// - Parameters:
    ///   - spans: The runs of the row, in order.
    ///   - id: What identifies the item when the rows change, if anything.
    public init(spans: [TextSpan], id: (some Hashable & Sendable)? = Int?.none) {
      text = spans.map(\.text).joined()
      style = .plain
      self.spans = spans
      self.id = id.map(ID.init)
    }

    /// Creates an item that keeps the selection by identity.
    ///
    /// - Parameters:
    ///   - text: The text, drawn on one row.
    ///   - id: What identifies the item when the rows change: a line number, a key.
    ///   - style: The look of the row when it is not selected; plain by default.
    public init(_ text: String, id: some Hashable & Sendable, style: CellStyle = .plain) {
      self.text = text
      self.style = style
      self.id = ID(id)
    }

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - text: The text, drawn on one row.
    ///   - style: The look of the row when it is not selected; plain by default.
    public init(_ text: String, style: CellStyle = .plain) {
      self.text = text
      self.style = style
    }

    /// Creates a plain item from a string literal.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
      self.init(value)
    }
  }

  /// The rows. Setting them keeps the selection on a valid row (the last one, if the
  /// selected row is gone), or `nil` when there are none.
  ///
  /// With ``followsTail`` on and the last row selected, the new last row is selected; an
  /// item with an ``Item/id`` stays selected where it moved; otherwise the index stays.
  public var items: [Item] {
    didSet {
      guard items != oldValue else { return }
      // An empty list that follows its tail starts there.
      let wasAtTail = selection == nil || selection == oldValue.count - 1
      if followsTail, wasAtTail {
        selection = items.count - 1
      } else if let selection, oldValue.indices.contains(selection),
        let id = oldValue[selection].id,
        let moved = items.firstIndex(where: { $0.id == id })
      {
        self.selection = moved
      } else {
        selection = clampedSelection(selection)
      }
      setNeedsDisplay()
    }
  }

  /// The selected row's index, or `nil` when the list is empty. Setting it clamps it to
  /// the rows there are; the list scrolls on its next draw to show it. Every change calls
  /// ``onSelectionChange``.
  public var selection: Int? {
    didSet {
      let clamped = clampedSelection(selection)
      if clamped != selection { selection = clamped }
      guard selection != oldValue else { return }
      revealsSelection = true
      setNeedsDisplay()
      onSelectionChange?(selection)
    }
  }

  /// Called after every change of ``selection`` — a key, the mouse, new items, or the
  /// app — with the new selection, on the thread that runs the list's render loop.
  public var onSelectionChange: ((Int?) -> Void)?

  /// Called with the selected row when Enter is pressed while the list has the focus.
  /// While it is set, the list takes Enter; while it is `nil`, Enter goes on to the app.
  public var onActivate: ((Int) -> Void)?

  /// Whether a selection on the last row follows the rows added after it, as `tail -f`
  /// does; off by default. Moving the selection up pauses the following; moving it back
  /// to the last row resumes it.
  public var followsTail = false

  /// How many columns of every row are scrolled out at the left, to show long lines;
  /// 0 by default. Set it, or turn on ``scrollsHorizontally`` to let Left and Right move
  /// it.
  public var horizontalOffset = 0 {
    didSet {
      if horizontalOffset < 0 { horizontalOffset = 0 }
      if horizontalOffset != oldValue { setNeedsDisplay() }
    }
  }

  /// Whether Left and Right scroll the rows sideways (by ``horizontalScrollStep``
  /// columns); off by default, so that the app hears those keys.
  public var scrollsHorizontally = false

  /// How far Left and Right scroll, in columns, while ``scrollsHorizontally`` is on.
  public var horizontalScrollStep = 8

  /// Whether the next draw scrolls to the selection: set when the selection changes, so
  /// that an offset the app set stays until then.
  private var revealsSelection = true

  /// The selected item, if any.
  public var selectedItem: Item? { selection.map { items[$0] } }

  /// The first row shown. It changes only as far as it must to keep a new selection in
  /// view (on the next draw), or when the rows no longer fill the list. Set it to scroll
  /// without moving the selection (a log view's Page Up that keeps following paused);
  /// the next change of the selection scrolls back to it.
  public var scrollOffset = 0 {
    didSet {
      if scrollOffset < 0 { scrollOffset = 0 }
      if scrollOffset != oldValue {
        revealsSelection = false
        setNeedsDisplay()
      }
    }
  }

  /// What the list shows, dimmed, while it has no rows.
  public var placeholder: String {
    didSet { if placeholder != oldValue { setNeedsDisplay() } }
  }

  /// The look of the selected row, drawn over its whole width; the item's style reversed
  /// by default (see `CellAttributes.reverse`).
  public var selectedStyle: CellStyle? {
    didSet { if selectedStyle != oldValue { setNeedsDisplay() } }
  }

  /// Whether the selected row is highlighted; turn it off while the list does not have
  /// the focus.
  public var showsSelection = true {
    didSet { if showsSelection != oldValue { setNeedsDisplay() } }
  }

  /// Creates a list.
  ///
  /// - Parameters:
  ///   - items: The rows; the first is selected, if there is one.
  ///   - placeholder: What the list shows while it has no rows.
  ///   - name: A name for debugging output.
  ///   - frame: The list's rectangle: one row per item, as many as fit.
  public init(
    items: [Item] = [], placeholder: String = "", name: String? = nil, frame: Rect = .zero
  ) {
    self.items = items
    self.placeholder = placeholder
    selection = items.isEmpty ? nil : 0
    super.init(name: name, frame: frame)
  }

  /// As wide as the widest item, one row per item.
  open override var intrinsicContentSize: Size {
    Size(width: items.map(\.text.terminalColumns).max() ?? 0, height: items.count)
  }

  private func clampedSelection(_ index: Int?) -> Int? {
    guard !items.isEmpty else { return nil }
    return min(max(0, index ?? 0), items.count - 1)
  }

  // MARK: Keys

  /// Moves the selection by `rows` (down for a positive number), stopping at the ends.
  ///
  /// - Parameter rows: How many rows to move.
  public func moveSelection(by rows: Int) {
    guard let selection else { return }
    self.selection = selection.saturatingAdd(rows)
  }

  /// Takes the keys that move the selection (see the type's description).
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether the list took it.
  open func handle(_ key: TerminalKey) -> Bool {
    let page = max(1, bounds.size.height - 1)
    switch key {
    case .up: moveSelection(by: -1)
    case .down: moveSelection(by: 1)
    case .pageUp: moveSelection(by: -page)
    case .pageDown: moveSelection(by: page)
    case .left where scrollsHorizontally:
      horizontalOffset = max(0, horizontalOffset - horizontalScrollStep)
    case .right where scrollsHorizontally:
      let widest = items.map(\.text.terminalColumns).max() ?? 0
      horizontalOffset = min(max(0, widest - 1), horizontalOffset + horizontalScrollStep)
    case .home: selection = 0
    case .end: selection = items.count - 1
    case .enter:
      guard let onActivate, let selection else { return false }
      onActivate(selection)
    case .mouse(let event):
      switch event.kind {
      case .scrollUp: moveSelection(by: -1)
      case .scrollDown: moveSelection(by: 1)
      case .press where event.button == .left:
        guard let row = row(at: event.point) else { return false }
        selection = row
      default: return false
      }
    default: return false
    }
    return true
  }

  /// The item under a point in the root's coordinates (where mouse events are), if any.
  private func row(at point: Point) -> Int? {
    let local = convertFromRoot(point)
    guard bounds.contains(local) else { return nil }
    let row = scrollOffset + local.y
    return row < items.count ? row : nil
  }

  // MARK: Drawing

  /// Draws the rows in view, the selected one highlighted, or the placeholder.
  open override func draw(in canvas: inout TextCanvas) {
    let size = bounds.size
    guard size.width > 0, size.height > 0 else { return }
    guard !items.isEmpty else {
      scrollOffset = 0
      canvas.draw(placeholder, in: bounds, style: CellStyle(attributes: .dim))
      return
    }
    scrollToSelection(height: size.height)
    for y in 0..<min(size.height, items.count - scrollOffset) {
      let index = scrollOffset + y
      let item = items[index]
      let row = Rect(x: 0, y: y, width: size.width, height: 1)
      var style = item.style
      let isSelected = showsSelection && index == selection
      if isSelected {
        style = selectedStyle ?? item.style.adding(.reverse)
        canvas.fill(row, with: " ", style: style)
      }
      var shown = [TextSpan(item.text, style: style)]
      if let spans = item.spans {
        shown = spans.map { span in
          TextSpan(
            span.text, style: isSelected ? selectedStyle ?? span.style.adding(.reverse) : span.style
          )
        }
      }
      if horizontalOffset > 0 { shown = Self.dropping(columns: horizontalOffset, from: shown) }
      canvas.draw(shown, in: row)
    }
  }

  /// The spans without their first `columns` columns: what a row shows scrolled
  /// sideways. A wide character cut by the edge leaves a space.
  static func dropping(columns: Int, from spans: [TextSpan]) -> [TextSpan] {
    var left = columns
    var result: [TextSpan] = []
    for span in spans {
      guard left > 0 else {
        result.append(span)
        continue
      }
      var kept = Substring(span.text)
      var prefix = ""
      while left > 0, let first = kept.first {
        let width = max(1, first.terminalColumns)
        kept = kept.dropFirst()
        if width > left { prefix = String(repeating: " ", count: width - left) }
        left -= min(left, width)
      }
      let text = prefix + kept
      if !text.isEmpty { result.append(TextSpan(text, style: span.style)) }
    }
    return result
  }

  /// Scrolls as little as keeps a new selection in view, and no further than fills the
  /// list. Changes the offset without the setter's observer, which marks an offset the
  /// app chose.
  private func scrollToSelection(height: Int) {
    var offset = min(scrollOffset, max(0, items.count - height))
    if revealsSelection, let selection {
      if selection < offset { offset = selection }
      if selection >= offset + height { offset = selection - height + 1 }
    }
    revealsSelection = false
    if offset != scrollOffset {
      scrollOffset = offset
      revealsSelection = false
    }
  }
}
