/// What a ``HeadlessNode`` tells the render loop that drives its tree. The root holds its
/// loop weakly, so dropping the loop stops it.
protocol RenderHost: AnyObject {
  /// A clean node of the tree became dirty; runs on the loop's scheduler (or inside a
  /// pass, which also runs there).
  func treeDidBecomeDirty()
}

/// A node phase whose reads of `@Observable` properties a loop tracks.
enum ObservedPhase: Int, CaseIterable, Sendable {
  case configuration
  case constraints
  case layout
  case display
  case intrinsicContentSize

  /// Runs the invalidation that a change to something this phase read calls for.
  func invalidate(_ node: HeadlessNode) {
    switch self {
    case .configuration: node.setNeedsUpdateConfiguration()
    case .constraints: node.setNeedsUpdateConstraints()
    case .layout: node.setNeedsLayout()
    case .display: node.setNeedsDisplay()
    case .intrinsicContentSize: node.invalidateIntrinsicContentSize()
    }
  }
}

/// Runs a node's override point under observation, so that what it reads can invalidate
/// that phase later. ``HeadlessNode/renderPass()`` runs without one.
protocol PhaseTracker: AnyObject {
  /// Runs `body`, the `phase` override point of `node`, tracking what it reads.
  func track(_ node: HeadlessNode, _ phase: ObservedPhase, _ body: () -> Void)
}
