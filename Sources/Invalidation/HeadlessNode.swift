import ReactiveCore

/// A reference render node to build headless interfaces on: a tree of nodes with dirty
/// flags per phase, override points, and a render pass that coalesces any number of
/// invalidations into one constraints/layout/display update per dirty node.
///
///     final class Badge: HeadlessNode {
///         @Invalidating(.display) var text = "new"
///         override func draw(in canvas: inout TextCanvas) {
///             canvas.drawBox(in: bounds)
///             canvas.draw(text, at: Point(x: 1, y: 1))
///         }
///     }
///     let badge = Badge(frame: Rect(x: 0, y: 0, width: 9, height: 3))
///     badge.renderPass()
///     print(badge.snapshot().rendered)
///
/// - Note: Like a UIKit view, a node and its tree are confined to one thread at a time
///   (typically the thread that runs your render loop). Nothing here takes a lock. Under a
///   ``RenderLoop``, that thread is the loop's scheduler: the first invalidation of a
///   clean node tells the loop, which schedules one pass for the whole tree.
open class HeadlessNode: RenderNode, CustomDebugStringConvertible {
  /// A name for debugging output.
  public var name: String

  /// The node's rectangle in its parent's coordinates. A new size marks layout and
  /// display as needed; a new origin only moves the node when compositing.
  ///
  /// The size is clamped as a canvas's is: a negative side becomes zero and a side past
  /// ``TextCanvas/maximumSize`` its maximum, so that `bounds.size.width - 4` and the like
  /// never overflow. The origin may be anywhere.
  public var frame: Rect {
    didSet {
      let clamped = frame.size.clamped(to: TextCanvas.maximumSize)
      if clamped != frame.size { frame.size = clamped }
      if frame.size != oldValue.size {
        setNeedsLayout()
        setNeedsDisplay()
      }
    }
  }
  /// Whether each render pass sets this node's height from its content: after layout,
  /// the height becomes the bottom edge of its lowest subnode, as a web page's height
  /// follows what it holds. `false` by default; the width stays as you set it.
  ///
  ///     let page = Stack(name: "page", frame: Rect(x: 0, y: 0, width: 80, height: 0))
  ///     page.fitsHeightToContent = true
  ///     page.renderPass()   // page.frame.size.height: the bottom of its lowest subnode
  ///
  /// A pass settles nested fitting nodes at once: when a fitted height changes, the
  /// parent lays out again in the same pass, so a parent that stacks its subnodes by
  /// their ``intrinsicContentSize`` (a fitted node's is its new size) moves the nodes
  /// below. Such a node and its parent may run ``layout()`` more than once in that pass.
  /// Don't use it on a node whose own layout reads its height (that is circular), or on
  /// a root that a terminal backend (`TerminalBackend`) sizes to the terminal.
  public var fitsHeightToContent = false {
    didSet { if fitsHeightToContent != oldValue { setNeedsLayout() } }
  }

  /// Values a backend module keeps per node, keyed by a type of its own (the HTML
  /// backend's `htmlElement` lives here), so that this module knows no backend.
  package var backendValues: [ObjectIdentifier: any Sendable] = [:]

  /// The node's rectangle in its own coordinates.
  public var bounds: Rect { Rect(origin: .zero, size: frame.size) }

  /// The node this one is a subnode of; held weakly.
  public private(set) weak var parent: HeadlessNode?

  /// The node's subnodes, back to front; held strongly.
  public private(set) var subnodes: [HeadlessNode] = []

  /// Whether the next render pass runs ``layout()``.
  public private(set) var needsLayout = true
  /// Whether the next render pass runs ``draw(in:)``.
  public private(set) var needsDisplay = true
  /// Whether the next render pass runs ``updateConstraints()``.
  public private(set) var needsUpdateConstraints = true
  /// Whether the next render pass runs ``updateConfiguration()``.
  public private(set) var needsUpdateConfiguration = true

  /// How many times ``layout()`` has run on this node.
  public private(set) var layoutCount = 0
  /// How many times ``draw(in:)`` has run on this node.
  public private(set) var displayCount = 0

  /// The last drawing, while ``hasLayer``; an empty canvas (no storage) otherwise. Not an
  /// optional, so that it can be swapped with a local without a copy (see
  /// ``compositeLayer(into:at:)``).
  private var layerStorage = TextCanvas.empty
  /// Whether the node has drawn (``layerStorage`` holds its drawing).
  private var hasLayer = false
  /// The last drawing's size, `nil` before the first.
  private var layerSize: Size? { hasLayer ? layerStorage.size : nil }
  private var subject: PassthroughSubject<InvalidationKind, Never>?

  /// The render loop driving the tree this node is the root of; only a loop's root has one.
  weak var host: (any RenderHost)?
  /// One observer per phase whose `@Observable` reads a loop tracks; created on first use.
  var phaseObservers: [PhaseObserver?] = []
  /// Whether the next loop pass should read ``intrinsicContentSize`` under observation.
  var needsIntrinsicSizeTracking = true

  /// Creates a node.
  ///
  /// - Parameters:
  ///   - name: A name for debugging output; the class name by default.
  ///   - frame: The node's rectangle in its parent's coordinates.
  public init(name: String? = nil, frame: Rect = .zero) {
    self.name = name ?? String(describing: type(of: self))
    self.frame = Rect(origin: frame.origin, size: frame.size.clamped(to: TextCanvas.maximumSize))
  }

  deinit {
    subject?.send(completion: .finished)
  }

  // MARK: Tree

  /// Adds a node on top of the existing subnodes, moving it from any previous parent.
  ///
  /// - Parameter node: The node to add.
  open func addSubnode(_ node: HeadlessNode) {
    node.removeFromParent()
    subnodes.append(node)
    node.parent = self
    setNeedsLayout()
  }

  /// Removes the node from its parent; does nothing for a root.
  open func removeFromParent() {
    guard let parent else { return }
    parent.subnodes.removeAll { $0 === self }
    self.parent = nil
    parent.setNeedsLayout()
  }

  // MARK: Invalidation

  /// Every invalidation this node receives, as it happens: for tests, tracing and
  /// debugging tools.
  public var invalidations: AnyPublisher<InvalidationKind, Never> {
    if let subject { return subject.eraseToAnyPublisher() }
    let created = PassthroughSubject<InvalidationKind, Never>()
    subject = created
    return created.eraseToAnyPublisher()
  }

  private func publish(_ kind: InvalidationKind) {
    subject?.send(kind)
  }

  /// Marks the layout as needed for the next render pass.
  open func setNeedsLayout() {
    if !needsLayout {
      needsLayout = true
      didBecomeDirty()
    }
    publish(.layout)
  }

  /// Marks the drawing as needed for the next render pass.
  open func setNeedsDisplay() {
    if !needsDisplay {
      needsDisplay = true
      didBecomeDirty()
    }
    publish(.display)
  }

  /// Marks the constraints as needing an update in the next render pass.
  open func setNeedsUpdateConstraints() {
    if !needsUpdateConstraints {
      needsUpdateConstraints = true
      didBecomeDirty()
    }
    publish(.constraints)
  }

  /// Marks this node's layout and its parent's layout as needed, as UIKit does: a new
  /// natural size affects how the parent arranges its subnodes.
  open func invalidateIntrinsicContentSize() {
    needsIntrinsicSizeTracking = true
    if !needsLayout {
      needsLayout = true
      didBecomeDirty()
    }
    publish(.intrinsicContentSize)
    parent?.setNeedsLayout()
  }

  /// Notes that restorable state changed; headless nodes keep no state to save.
  open func invalidateRestorableState() {
    publish(.restorableState)
  }

  /// Marks the configuration as needing an update in the next render pass.
  open func setNeedsUpdateConfiguration() {
    if !needsUpdateConfiguration {
      needsUpdateConfiguration = true
      didBecomeDirty()
    }
    publish(.configuration)
  }

  /// Tells the nearest render loop up the tree that a clean node became dirty. Only the
  /// first invalidation of each phase since the last pass gets here, so a burst of sets
  /// costs one walk to the root per node, not one per set.
  private func didBecomeDirty() {
    var node = self
    while true {
      if let host = node.host {
        host.treeDidBecomeDirty()
        return
      }
      guard let parent = node.parent else { return }
      node = parent
    }
  }

  // MARK: Override points

  /// Updates constraint-like values before layout. Runs at most once per render pass.
  open func updateConstraints() {}

  /// Updates the node's configuration (appearance from state). Runs at most once per
  /// render pass, before constraints.
  open func updateConfiguration() {}

  /// Positions the subnodes by setting their frames. Runs at most once per render pass.
  open func layout() {}

  /// Draws the node's own contents into a canvas the size of ``bounds``. Runs at most
  /// once per render pass, and only when the node needs display.
  ///
  /// - Parameter canvas: A blank canvas of the node's size.
  open func draw(in canvas: inout TextCanvas) {}

  /// The node's natural size; ``frame``'s size by default.
  open var intrinsicContentSize: Size { frame.size }

  // MARK: Passes on one node

  /// Runs ``updateConfiguration()`` and ``updateConstraints()`` if needed, then
  /// ``layout()`` if needed, on this node and then its subnodes.
  public func layoutIfNeeded() {
    _ = updateIfNeeded(tracker: nil)
    if needsLayout { layoutAndCount(tracker: nil) }
    for subnode in subnodes { subnode.layoutIfNeeded() }
  }

  func layoutAndCount(tracker: (any PhaseTracker)?) {
    needsLayout = false
    layoutCount += 1
    if let tracker {
      tracker.track(self, .layout) { layout() }
    } else {
      layout()
    }
  }

  /// Redraws this node's contents if they are marked as needed.
  ///
  /// - Returns: Whether the node drew.
  @discardableResult
  public func displayIfNeeded() -> Bool {
    displayIfNeeded(tracker: nil)
  }

  func displayIfNeeded(tracker: (any PhaseTracker)?) -> Bool {
    guard needsDisplay || layerSize != frame.size else { return false }
    needsDisplay = false
    displayCount += 1
    var canvas = reusableLayer() ?? TextCanvas(size: frame.size)
    if let tracker {
      tracker.track(self, .display) { draw(in: &canvas) }
    } else {
      draw(in: &canvas)
    }
    layerStorage = canvas
    hasLayer = true
    return true
  }

  func updateIfNeeded(tracker: (any PhaseTracker)?) -> (configured: Bool, constrained: Bool) {
    var result = (configured: false, constrained: false)
    if needsUpdateConfiguration {
      needsUpdateConfiguration = false
      if let tracker {
        tracker.track(self, .configuration) { updateConfiguration() }
      } else {
        updateConfiguration()
      }
      result.configured = true
    }
    if needsUpdateConstraints {
      needsUpdateConstraints = false
      if let tracker {
        tracker.track(self, .constraints) { updateConstraints() }
      } else {
        updateConstraints()
      }
      result.constrained = true
    }
    if let tracker, needsIntrinsicSizeTracking {
      needsIntrinsicSizeTracking = false
      tracker.track(self, .intrinsicContentSize) { _ = intrinsicContentSize }
    }
    return result
  }

  /// Whether any phase of this node waits for the next pass.
  var needsAnyPhase: Bool {
    needsLayout || needsDisplay || needsUpdateConstraints || needsUpdateConfiguration
      || layerSize != frame.size
  }

  package var cachedLayer: TextCanvas? { hasLayer ? layerStorage : nil }

  /// Composites the last drawing, if any, onto `canvas` at `origin`. The layer is moved
  /// out for the call and back after (compositing calls no node), which spares copying
  /// it: a copy retains each of its buffers.
  func compositeLayer(into canvas: inout TextCanvas, at origin: Point) {
    guard hasLayer else { return }
    var drawing = TextCanvas.empty
    swap(&drawing, &layerStorage)
    canvas.composite(drawing, at: origin)
    swap(&drawing, &layerStorage)
  }

  /// The last layer, erased, when it has the size a new one would have: taken out of
  /// ``layerStorage`` first, so that erasing and drawing write the storage it already has
  /// (nothing else holds it once a frame was composited from it).
  private func reusableLayer() -> TextCanvas? {
    // (Taken even when its size is another: the new drawing replaces it either way.)
    guard hasLayer else { return nil }
    var canvas = TextCanvas.empty
    swap(&canvas, &layerStorage)
    hasLayer = false
    guard canvas.size == frame.size.clamped(to: TextCanvas.maximumSize) else { return nil }
    canvas.erase()
    return canvas
  }

  /// The tree below this node, one line per node, with its frame and dirty flags.
  public var debugDescription: String {
    var lines: [String] = []
    func describe(_ node: HeadlessNode, depth: Int) {
      let flags = [
        node.needsLayout ? "layout" : nil, node.needsDisplay ? "display" : nil,
        node.needsUpdateConstraints ? "constraints" : nil,
      ].compactMap { $0 }
      let dirty = flags.isEmpty ? "clean" : "needs " + flags.joined(separator: ", ")
      lines.append(String(repeating: "  ", count: depth) + "\(node.name) \(node.frame) [\(dirty)]")
      for subnode in node.subnodes { describe(subnode, depth: depth + 1) }
    }
    describe(self, depth: 0)
    return lines.joined(separator: "\n")
  }
}
