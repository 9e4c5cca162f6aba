/// The built-in invalidations, reachable in an `@Invalidating` attribute as `.layout`,
/// `.display`, `.constraints`, `.intrinsicContentSize`, `.restorableState` and
/// `.configuration`. Extend it with your own (see ``RenderNodeInvalidating``).
public enum Invalidations {
  /// Calls ``RenderNode/setNeedsLayout()``.
  public struct Layout: RenderNodeInvalidating, Sendable {
    /// Creates the invalidation.
    public init() {}
    /// Calls `node.setNeedsLayout()`.
    public func invalidate(node: any RenderNode) { node.setNeedsLayout() }
  }

  /// Calls ``RenderNode/setNeedsDisplay()``.
  public struct Display: RenderNodeInvalidating, Sendable {
    /// Creates the invalidation.
    public init() {}
    /// Calls `node.setNeedsDisplay()`.
    public func invalidate(node: any RenderNode) { node.setNeedsDisplay() }
  }

  /// Calls ``RenderNode/setNeedsUpdateConstraints()``.
  public struct Constraints: RenderNodeInvalidating, Sendable {
    /// Creates the invalidation.
    public init() {}
    /// Calls `node.setNeedsUpdateConstraints()`.
    public func invalidate(node: any RenderNode) { node.setNeedsUpdateConstraints() }
  }

  /// Calls ``RenderNode/invalidateIntrinsicContentSize()``.
  public struct IntrinsicContentSize: RenderNodeInvalidating, Sendable {
    /// Creates the invalidation.
    public init() {}
    /// Calls `node.invalidateIntrinsicContentSize()`.
    public func invalidate(node: any RenderNode) { node.invalidateIntrinsicContentSize() }
  }

  /// Calls ``RenderNode/invalidateRestorableState()``.
  public struct RestorableState: RenderNodeInvalidating, Sendable {
    /// Creates the invalidation.
    public init() {}
    /// Calls `node.invalidateRestorableState()`.
    public func invalidate(node: any RenderNode) { node.invalidateRestorableState() }
  }

  /// Calls ``RenderNode/setNeedsUpdateConfiguration()``.
  public struct Configuration: RenderNodeInvalidating, Sendable {
    /// Creates the invalidation.
    public init() {}
    /// Calls `node.setNeedsUpdateConfiguration()`.
    public func invalidate(node: any RenderNode) { node.setNeedsUpdateConfiguration() }
  }
}

extension RenderNodeInvalidating where Self == Invalidations.Layout {
  /// Invalidates the node's layout.
  public static var layout: Self { .init() }
}

extension RenderNodeInvalidating where Self == Invalidations.Display {
  /// Invalidates the node's display.
  public static var display: Self { .init() }
}

extension RenderNodeInvalidating where Self == Invalidations.Constraints {
  /// Invalidates the node's constraints.
  public static var constraints: Self { .init() }
}

extension RenderNodeInvalidating where Self == Invalidations.IntrinsicContentSize {
  /// Invalidates the node's intrinsic content size.
  public static var intrinsicContentSize: Self { .init() }
}

extension RenderNodeInvalidating where Self == Invalidations.RestorableState {
  /// Invalidates the node's restorable state.
  public static var restorableState: Self { .init() }
}

extension RenderNodeInvalidating where Self == Invalidations.Configuration {
  /// Invalidates the node's configuration.
  public static var configuration: Self { .init() }
}
