/// Which of a ``RenderNode``'s six entry points an invalidation came through, as
/// published by ``HeadlessNode/invalidations``.
public enum InvalidationKind: String, Sendable, CaseIterable, CustomStringConvertible {
  /// ``RenderNode/setNeedsLayout()``.
  case layout
  /// ``RenderNode/setNeedsDisplay()``.
  case display
  /// ``RenderNode/setNeedsUpdateConstraints()``.
  case constraints
  /// ``RenderNode/invalidateIntrinsicContentSize()``.
  case intrinsicContentSize
  /// ``RenderNode/invalidateRestorableState()``.
  case restorableState
  /// ``RenderNode/setNeedsUpdateConfiguration()``.
  case configuration

  /// The case name.
  public var description: String { rawValue }
}
