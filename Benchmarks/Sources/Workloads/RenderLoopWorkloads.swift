import Observation
import Ripple
import Synchronization

/// Issue 18's workloads: the render loop's coalescing, Observation-driven invalidation,
/// and the terminal backend's bytes per frame.
public enum RenderLoopWorkloads {
  /// A node with one invalidating property and a trivial layout.
  final class Cell: HeadlessNode {
    @Invalidating(.layout) var value = 0
    override func layout() { blackHole &+= value }
  }

  /// A root with 1,000 cells, rendered once.
  static func tree() -> (HeadlessNode, [Cell]) {
    let root = HeadlessNode(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let cells = (0..<1_000).map { _ in Cell(frame: Rect(x: 0, y: 0, width: 1, height: 1)) }
    for cell in cells { root.addSubnode(cell) }
    return (root, cells)
  }

  /// 10,000 sets across 1,000 nodes.
  static func setAll(_ cells: [Cell], round: Int) {
    for step in 0..<10_000 { cells[step % 1_000].value = round &* 10_000 &+ step &+ 1 }
  }

  // The benchmark runs on one thread; the trees live for the whole process.
  nonisolated(unsafe) static let loopTree:
    (HeadlessNode, [Cell], TestScheduler, RenderLoop<TestScheduler>) = {
      let (root, cells) = tree()
      let scheduler = TestScheduler()
      let loop = RenderLoop(root: root, scheduler: scheduler)
      scheduler.advance()
      return (root, cells, scheduler, loop)
    }()
  nonisolated(unsafe) static let directTree: (HeadlessNode, [Cell]) = {
    let (root, cells) = tree()
    root.renderPass()
    return (root, cells)
  }()
  nonisolated(unsafe) static var round = 0

  /// `render_loop_coalesce`, the loop's side: per operation, 10,000 sets across 1,000
  /// nodes, then one scheduler tick (exactly one pass).
  public static func renderLoopCoalesce(_ n: Int) {
    let (_, cells, scheduler, _) = loopTree
    for _ in 0..<n {
      round &+= 1
      setAll(cells, round: round)
      scheduler.advance()
    }
  }

  /// `render_loop_coalesce`, the baseline: the same sets, then `renderPass()` directly.
  public static func directRenderPass(_ n: Int) {
    let (root, cells) = directTree
    for _ in 0..<n {
      round &+= 1
      setAll(cells, round: round)
      blackHole &+= root.renderPass().laidOut
    }
  }

  /// How many passes one tick ran after 10,000 sets across 1,000 nodes.
  public static func passesPerTick() -> Int {
    let (_, cells, scheduler, loop) = loopTree
    let before = loop.passCount
    round &+= 1
    setAll(cells, round: round)
    scheduler.advance()
    return loop.passCount - before
  }

  @Observable final class Model {
    var value = 0
  }

  /// Draws the model's value (tracked), or its own invalidating value.
  final class Reader: HeadlessNode {
    let model: Model
    @Invalidating(.display) var own = 0
    init(model: Model) {
      self.model = model
      super.init(frame: Rect(x: 0, y: 0, width: 8, height: 1))
    }
    override func draw(in canvas: inout TextCanvas) { blackHole &+= model.value &+ own }
  }

  nonisolated(unsafe) static let observed:
    (Model, Reader, TestScheduler, RenderLoop<TestScheduler>) = {
      let model = Model()
      let reader = Reader(model: model)
      let scheduler = TestScheduler()
      let loop = RenderLoop(root: reader, scheduler: scheduler)
      scheduler.advance()
      return (model, reader, scheduler, loop)
    }()

  /// `observation_invalidate`: an `@Observable` change, carried to the node on the
  /// scheduler, and the pass that redraws it (and tracks again).
  public static func observationInvalidate(_ n: Int) {
    let (model, _, scheduler, _) = observed
    for _ in 0..<n {
      model.value &+= 1
      scheduler.advance()
    }
  }

  /// The baseline: a plain `@Invalidating` set on the same node, and the same pass.
  public static func invalidatingInvalidate(_ n: Int) {
    let (_, reader, scheduler, _) = observed
    for _ in 0..<n {
      reader.own &+= 1
      scheduler.advance()
    }
  }

  /// Ten labels of ten cells on an 80×24 screen.
  final class Label: HeadlessNode {
    @Invalidating(.display) var text = ""
    override func draw(in canvas: inout TextCanvas) {
      canvas.draw(text, at: .zero, style: CellStyle(foreground: .standard(.cyan)))
    }
  }

  final class Screen: HeadlessNode {
    override func layout() {
      for (index, node) in subnodes.enumerated() {
        node.frame = Rect(x: 4, y: 2 + index * 2, width: 10, height: 1)
      }
    }
  }

  /// `terminal_frame_bytes`: bytes written for a full repaint, an idle frame and a frame
  /// where one 10-cell label changed.
  public static func terminalFrameBytes() -> (full: Int, idle: Int, oneLabel: Int) {
    let root = Screen(frame: Rect(x: 0, y: 0, width: 80, height: 24))
    let labels = (0..<10).map { index in
      let label = Label()
      label.text = "label \(index)".padding(toLength: 10, withPad: ".", startingAt: 0)
      return label
    }
    for label in labels { root.addSubnode(label) }
    let scheduler = TestScheduler()
    let loop = RenderLoop(root: root, scheduler: scheduler)
    let backend = TerminalBackend(loop: loop, writer: TerminalWriter { _ in })
    scheduler.advance()
    let full = backend.lastFrameBytes
    loop.setNeedsPass()
    scheduler.advance()
    let idle = backend.lastFrameBytes
    labels[3].text = "CHANGED!!!"
    scheduler.advance()
    return (full, idle, backend.lastFrameBytes)
  }

  /// `terminal_frame_bytes` with wide characters: each label's row also holds wide text
  /// (CJK and emoji, two columns each) beside it, and the changed label's new text is
  /// itself wide (10 columns). Returns the bytes of an idle frame and of the frame where
  /// the one label changed.
  public static func terminalFrameBytesWide() -> (idle: Int, oneLabel: Int) {
    let root = WideScreen(frame: Rect(x: 0, y: 0, width: 80, height: 24))
    let labels = (0..<10).map { index in
      let label = Label()
      label.text = "label \(index)".padding(toLength: 10, withPad: ".", startingAt: 0)
      return label
    }
    for label in labels { root.addSubnode(label) }
    for _ in 0..<10 { root.addSubnode(WideNeighbour()) }
    let scheduler = TestScheduler()
    let loop = RenderLoop(root: root, scheduler: scheduler)
    let backend = TerminalBackend(loop: loop, writer: TerminalWriter { _ in })
    scheduler.advance()
    loop.setNeedsPass()
    scheduler.advance()
    let idle = backend.lastFrameBytes
    labels[3].text = "買い物🛒ok"
    scheduler.advance()
    return (idle, backend.lastFrameBytes)
  }

  /// Ten labels at the left, as ``Screen`` lays them out, and beside each (its subnodes
  /// 10…19) a row of wide text.
  final class WideScreen: HeadlessNode {
    override func layout() {
      for (index, node) in subnodes.enumerated() {
        node.frame =
          index < 10
          ? Rect(x: 4, y: 2 + index * 2, width: 10, height: 1)
          : Rect(x: 20, y: 2 + (index - 10) * 2, width: 40, height: 1)
      }
    }
  }

  /// Wide text in a label's row: CJK, emoji with and without a modifier.
  final class WideNeighbour: HeadlessNode {
    override func draw(in canvas: inout TextCanvas) {
      canvas.draw("買い物 🛒 データ同期 👍🏽 東京", at: .zero)
    }
  }
}
