/// Something that can be invalidated the way a UIKit or AppKit view can, without being a
/// view: a node in a headless render tree, a terminal widget, a scene-graph node.
///
/// Any class with these six methods conforms, so `@Invalidating` works on your own
/// classes as well as on ``HeadlessNode``.
///
///     final class Label: RenderNode {
///         @Invalidating(.display) var text = ""
///         func setNeedsDisplay() { print("redraw") }
///         // … the other five entry points
///     }
public protocol RenderNode: AnyObject {
  /// Marks the node's layout as needing an update.
  func setNeedsLayout()
  /// Marks the node's contents as needing to be drawn again.
  func setNeedsDisplay()
  /// Marks the node's constraints as needing an update.
  func setNeedsUpdateConstraints()
  /// Tells the node that its natural size has changed.
  func invalidateIntrinsicContentSize()
  /// Marks the node's restorable state as needing to be saved again.
  func invalidateRestorableState()
  /// Marks the node's configuration as needing an update.
  func setNeedsUpdateConfiguration()
}

/// An invalidation that a property change can trigger on a ``RenderNode``.
///
/// Conform a type to add your own invalidator, then expose it as a static member so it can
/// be written `.focus` in an `@Invalidating` attribute:
///
///     extension Invalidations {
///         struct Focus: RenderNodeInvalidating {
///             static let focus: Self = .init()
///             func invalidate(node: any RenderNode) { (node as? FocusableNode)?.refocus() }
///         }
///     }
///     extension RenderNodeInvalidating where Self == Invalidations.Focus {
///         static var focus: Self { .focus }
///     }
public protocol RenderNodeInvalidating {
  /// Performs the invalidation on `node`.
  ///
  /// - Parameter node: The node whose property changed.
  func invalidate(node: any RenderNode)
}
