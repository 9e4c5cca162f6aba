import Invalidation

/// A plain class (no base class) that records every entry point called, in order.
class RecordingNode: RenderNode {
  var calls: [String] = []
  func setNeedsLayout() { calls.append("layout") }
  func setNeedsDisplay() { calls.append("display") }
  func setNeedsUpdateConstraints() { calls.append("constraints") }
  func invalidateIntrinsicContentSize() { calls.append("intrinsicContentSize") }
  func invalidateRestorableState() { calls.append("restorableState") }
  func setNeedsUpdateConfiguration() { calls.append("configuration") }
}

extension Invalidations {
  /// The seed README's custom invalidator.
  struct Focus: RenderNodeInvalidating {
    static let focus: Self = .init()
    func invalidate(node: any RenderNode) { (node as? RecordingNode)?.calls.append("focus") }
  }
}

extension RenderNodeInvalidating where Self == Invalidations.Focus {
  static var focus: Self { .focus }
}

/// Draws a node on its own and returns its first rows, as the terminal would show them.
func rendered(_ node: HeadlessNode) -> [String] {
  node.renderPass()
  return node.snapshot().lines
}
