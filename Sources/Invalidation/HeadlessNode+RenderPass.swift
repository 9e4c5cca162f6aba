/// What one render pass did: how many nodes it visited and how many it configured,
/// constrained, laid out and drew.
public struct RenderReport: Sendable, Equatable, CustomStringConvertible {
  /// Nodes in the tree.
  public var nodes = 0
  /// Nodes whose ``HeadlessNode/updateConfiguration()`` ran.
  public var configured = 0
  /// Nodes whose ``HeadlessNode/updateConstraints()`` ran.
  public var constrained = 0
  /// Nodes whose ``HeadlessNode/layout()`` ran.
  public var laidOut = 0
  /// Nodes whose ``HeadlessNode/draw(in:)`` ran.
  public var drawn = 0

  /// Creates an empty report.
  public init() {}

  /// `nodes: 5 · laid out: 2 · drawn: 1`.
  public var description: String { "nodes: \(nodes) · laid out: \(laidOut) · drawn: \(drawn)" }
}

extension HeadlessNode {
  /// Runs one render pass over this node's whole tree: configuration and constraints
  /// first (children before parents, as UIKit updates constraints), then layout
  /// (parents before children, so a parent's new frames are laid out in the same pass),
  /// then display. Each phase runs at most once per dirty node, however many
  /// invalidations arrived since the last pass.
  ///
  ///     for _ in 0..<1_000 { badge.cornerRadius += 1 }
  ///     let report = badge.renderPass()
  ///     // report.laidOut == 1
  ///
  /// - Returns: What the pass did.
  /// - Complexity: O(n) in the number of nodes.
  @discardableResult
  public func renderPass() -> RenderReport {
    renderPass(tracker: nil)
  }

  /// The pass, with each override point run under `tracker` when a loop observes reads.
  func renderPass(tracker: (any PhaseTracker)?) -> RenderReport {
    var report = RenderReport()
    var preorder: [HeadlessNode] = []
    collect(into: &preorder)
    report.nodes = preorder.count
    for node in preorder.reversed() {
      let updated = node.updateIfNeeded(tracker: tracker)
      if updated.configured { report.configured += 1 }
      if updated.constrained { report.constrained += 1 }
    }
    var laidOut: [HeadlessNode] = []
    var queue = layoutPhase(tracker: tracker, laidOut: &laidOut)
    report.laidOut = laidOut.count
    // Fitted heights settle bottom-up, a level per round: each change lays the parent
    // out again. The bound only guards against a layout that never settles.
    var rounds = 0
    if fitHeightsToContent(queue) {
      var seen = Set(laidOut.map(ObjectIdentifier.init))
      repeat {
        rounds += 1
        laidOut.removeAll(keepingCapacity: true)
        queue = layoutPhase(tracker: tracker, laidOut: &laidOut)
        for node in laidOut where seen.insert(ObjectIdentifier(node)).inserted {
          report.laidOut += 1
        }
      } while rounds < Self.maximumFittingRounds && fitHeightsToContent(queue)
    }
    for node in queue where node.displayIfNeeded(tracker: tracker) { report.drawn += 1 }
    return report
  }

  /// How many times a pass lays out again for fitted heights before it leaves the rest
  /// to the next pass: enough for any tree nested this deep.
  static var maximumFittingRounds: Int { 64 }

  /// Runs ``layout()`` where needed, parents before children, and returns every node of
  /// the tree in that order.
  private func layoutPhase(
    tracker: (any PhaseTracker)?, laidOut: inout [HeadlessNode]
  ) -> [HeadlessNode] {
    var index = 0
    // Layout may add or move subnodes, so walk the live tree rather than the snapshot.
    var queue: [HeadlessNode] = [self]
    while index < queue.count {
      let node = queue[index]
      index += 1
      _ = node.updateIfNeeded(tracker: tracker)
      if node.needsLayout {
        node.layoutAndCount(tracker: tracker)
        laidOut.append(node)
      }
      queue.append(contentsOf: node.subnodes)
    }
    return queue
  }

  /// Sets the height of every node that fits its content, children before parents, and
  /// marks the parent of each one that changed for layout. Returns whether any changed.
  private func fitHeightsToContent(_ nodes: [HeadlessNode]) -> Bool {
    var changed = false
    for node in nodes.reversed() where node.fitsHeightToContent {
      var bottom = 0
      for subnode in node.subnodes {
        bottom = max(bottom, subnode.frame.origin.y.saturatingAdd(subnode.frame.size.height))
      }
      guard bottom != node.frame.size.height else { continue }
      node.frame.size.height = bottom
      node.parent?.setNeedsLayout()
      changed = true
    }
    return changed
  }

  /// Composites every node's last drawing into one canvas the size of this node, back
  /// to front, each at its position in the tree.
  ///
  /// - Returns: The composited frame.
  public func snapshot() -> TextCanvas {
    // The root's own layer, when it has one of the root's size, is the canvas to start
    // from: copying it is what compositing it onto a blank canvas would give, without
    // placing each cell again.
    if let layer = cachedLayer, layer.size == frame.size {
      var canvas = layer
      compositeSubnodes(into: &canvas, at: .zero)
      return canvas
    }
    var canvas = TextCanvas(size: frame.size)
    composite(into: &canvas, at: .zero)
    return canvas
  }

  private func composite(into canvas: inout TextCanvas, at origin: Point) {
    compositeLayer(into: &canvas, at: origin)
    compositeSubnodes(into: &canvas, at: origin)
  }

  private func compositeSubnodes(into canvas: inout TextCanvas, at origin: Point) {
    for subnode in subnodes {
      subnode.composite(
        into: &canvas,
        at: Point(
          x: origin.x.saturatingAdd(subnode.frame.origin.x),
          y: origin.y.saturatingAdd(subnode.frame.origin.y)))
    }
  }

  /// Whether any node in this tree waits for a pass.
  var treeNeedsPass: Bool {
    if needsAnyPhase { return true }
    return subnodes.contains { $0.treeNeedsPass }
  }

  private func collect(into nodes: inout [HeadlessNode]) {
    nodes.append(self)
    for subnode in subnodes { subnode.collect(into: &nodes) }
  }
}
