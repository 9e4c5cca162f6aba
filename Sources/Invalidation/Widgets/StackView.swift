/// A node that lays its subnodes out in a row or a column, each given a
/// ``LayoutLength``: fixed sizes first, then the rest shared among the fills by weight
/// (see ``Rect/splitColumns(_:spacing:)``).
///
///     let screen = StackView(.vertical)
///     screen.addSubnode(title, length: .fixed(1))
///     screen.addSubnode(list)                      // .fill(1): the rest
///     screen.addSubnode(status, length: .fixed(1))
///
/// However small the stack, no subnode gets a negative size.
///
/// - Note: Like every node, confined to the thread that runs its render loop.
open class StackView: HeadlessNode {
  /// The direction a stack lays its subnodes out in.
  public enum Axis: Hashable, Sendable {
    /// Side by side, left to right.
    case horizontal
    /// One above the other, top to bottom.
    case vertical
  }

  /// The direction the subnodes are laid out in.
  public var axis: Axis {
    didSet { if axis != oldValue { setNeedsLayout() } }
  }

  /// The empty cells between two subnodes.
  public var spacing: Int {
    didSet { if spacing != oldValue { setNeedsLayout() } }
  }

  /// Each subnode's length, by identity; a subnode without one fills (`.fill(1)`).
  private var lengths: [ObjectIdentifier: LayoutLength] = [:]

  /// Creates a stack.
  ///
  /// - Parameters:
  ///   - axis: The direction to lay the subnodes out in.
  ///   - spacing: The empty cells between two subnodes; none by default.
  ///   - name: A name for debugging output.
  ///   - frame: The stack's rectangle.
  public init(_ axis: Axis, spacing: Int = 0, name: String? = nil, frame: Rect = .zero) {
    self.axis = axis
    self.spacing = spacing
    super.init(name: name, frame: frame)
  }

  /// Adds a subnode after the others, taking `length` of the stack's axis.
  ///
  /// - Parameters:
  ///   - node: The node to add.
  ///   - length: How much of the axis it takes.
  public func addSubnode(_ node: HeadlessNode, length: LayoutLength) {
    addSubnode(node)
    setLength(length, of: node)
  }

  /// Changes how much of the axis a subnode takes.
  ///
  /// - Parameters:
  ///   - length: How much of the axis it takes.
  ///   - node: A subnode of the stack.
  public func setLength(_ length: LayoutLength, of node: HeadlessNode) {
    lengths[ObjectIdentifier(node)] = length
    setNeedsLayout()
  }

  /// How much of the axis a subnode takes: `.fill(1)` unless set.
  ///
  /// - Parameter node: A subnode of the stack.
  /// - Returns: Its length.
  public func length(of node: HeadlessNode) -> LayoutLength {
    lengths[ObjectIdentifier(node)] ?? .fill(1)
  }

  /// Sets each subnode's frame to its part of the stack.
  open override func layout() {
    // Lengths of nodes that left the stack are dropped, so that a new node reusing the
    // address does not inherit one.
    let present = Set(subnodes.map(ObjectIdentifier.init))
    lengths = lengths.filter { present.contains($0.key) }
    let parts = subnodes.map(length(of:))
    let rects =
      axis == .vertical
      ? bounds.splitRows(parts, spacing: spacing) : bounds.splitColumns(parts, spacing: spacing)
    for (node, rect) in zip(subnodes, rects) { node.frame = rect }
  }
}
