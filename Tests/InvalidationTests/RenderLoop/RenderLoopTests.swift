import Invalidation
import ReactiveCore
import Testing

/// A node that lays its subnodes out in a column and counts its phases.
final class Column: HeadlessNode {
  @Invalidating(.layout) var spacing = 0
  @Invalidating(.display) var title = ""
  /// Run inside `layout()`, to invalidate things during a pass.
  var duringLayout: (() -> Void)?

  override func layout() {
    duringLayout?()
    var y = 0
    for node in subnodes {
      node.frame = Rect(x: 0, y: y, width: frame.size.width, height: 1)
      y += 1 + spacing
    }
  }

  override func draw(in canvas: inout TextCanvas) { canvas.draw(title, at: .zero) }
}

/// One line of text.
final class TextLine: HeadlessNode {
  @Invalidating(.display) var text = ""
  @Invalidating(.layout) var padding = 0
  override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero) }
}

/// A root with `count` lines, already rendered once by a loop on `scheduler`.
func renderedTree(lines count: Int, scheduler: TestScheduler) -> (
  Column, [TextLine], RenderLoop<TestScheduler>
) {
  let root = Column(name: "root", frame: Rect(x: 0, y: 0, width: 20, height: count + 1))
  let lines = (0..<count).map { TextLine(name: "line \($0)") }
  for line in lines { root.addSubnode(line) }
  let loop = RenderLoop(root: root, scheduler: scheduler)
  scheduler.advance()
  return (root, lines, loop)
}

@Suite struct RenderLoopTests {
  @Test func startsWithOnePassForANewTree() {
    let scheduler = TestScheduler()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    root.addSubnode(TextLine())
    let loop = RenderLoop(root: root, scheduler: scheduler)
    #expect(scheduler.pendingCount == 1)
    #expect(loop.passCount == 0)
    scheduler.advance()
    #expect(loop.passCount == 1)
    #expect(loop.lastReport?.laidOut == 2)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func anIdleTreeSchedulesNothing() {
    let scheduler = TestScheduler()
    let (_, _, loop) = renderedTree(lines: 3, scheduler: scheduler)
    #expect(scheduler.pendingCount == 0)
    #expect(!loop.isPassScheduled)
    scheduler.advance(by: .seconds(10))
    #expect(loop.passCount == 1)
  }

  @Test func aCleanTreeGivenToALoopSchedulesNothing() {
    let scheduler = TestScheduler()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    root.renderPass()
    let loop = RenderLoop(root: root, scheduler: scheduler)
    #expect(scheduler.pendingCount == 0)
    #expect(loop.passCount == 0)
  }

  @Test(arguments: [1, 10, 10_000])
  func anyNumberOfSetsJoinOnePass(sets: Int) {
    let scheduler = TestScheduler()
    let (_, lines, loop) = renderedTree(lines: 100, scheduler: scheduler)
    for step in 0..<sets {
      let line = lines[step % lines.count]
      line.padding = step + 1
      line.text = "\(step)"
    }
    #expect(scheduler.pendingCount == 1)
    scheduler.advance()
    #expect(loop.passCount == 2)
    let touched = min(sets, lines.count)
    #expect(loop.lastReport?.laidOut == touched)
    #expect(loop.lastReport?.drawn == touched)
    #expect(lines.allSatisfy { $0.layoutCount == ($0.padding > 0 ? 2 : 1) })
    #expect(scheduler.pendingCount == 0)
  }

  @Test func publishesEachReportOnTheScheduler() {
    let scheduler = TestScheduler()
    let (_, lines, loop) = renderedTree(lines: 2, scheduler: scheduler)
    var reports: [RenderReport] = []
    let cancellable = loop.reports.sink { reports.append($0) }
    lines[0].text = "a"
    #expect(reports.isEmpty)
    scheduler.advance()
    lines[1].padding = 3
    scheduler.advance()
    #expect(reports.map(\.drawn) == [1, 0])
    #expect(reports.map(\.laidOut) == [0, 1])
    cancellable.cancel()
  }

  @Test func theSamePassServesLayoutRequestsOfNodesNotYetLaidOut() {
    let scheduler = TestScheduler()
    let (root, lines, loop) = renderedTree(lines: 3, scheduler: scheduler)
    // The root's new spacing moves every line: each gets a new frame (and so a layout
    // request) from the root's layout, in the pass that is running.
    root.spacing = 1
    scheduler.advance()
    #expect(loop.passCount == 2)
    #expect(loop.lastReport?.laidOut == 1)
    #expect(lines[2].frame.origin.y == 4)
    #expect(scheduler.pendingCount == 0)
    #expect(!loop.isPassScheduled)
  }

  @Test func aRequestForANodeAlreadyVisitedSchedulesTheNextPass() {
    let scheduler = TestScheduler()
    let (root, lines, loop) = renderedTree(lines: 2, scheduler: scheduler)
    // The child's layout invalidates its parent, already laid out in this pass.
    let child = Column(name: "child", frame: Rect(x: 0, y: 0, width: 5, height: 1))
    lines[0].addSubnode(child)
    var once = true
    child.duringLayout = {
      if once { root.title = "changed by a child" }
      once = false
    }
    scheduler.advance()
    #expect(loop.passCount == 2)
    // The root drew in the display phase of the same pass, after the request.
    #expect(root.displayCount == 2)
    child.duringLayout = { root.spacing += 1 }
    child.setNeedsLayout()
    scheduler.advance()
    #expect(loop.passCount == 3)
    #expect(loop.isPassScheduled)
    #expect(scheduler.pendingCount == 1)
    child.duringLayout = nil
    scheduler.advance()
    #expect(loop.passCount == 3)
    scheduler.advance(by: .nanoseconds(1))
    #expect(loop.passCount == 4)
    #expect(root.spacing == 1)
    #expect(!loop.isPassScheduled)
  }

  @Test func aNodeThatAlwaysInvalidatesItselfNeverLoopsInOnePass() {
    let scheduler = TestScheduler()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    root.duringLayout = { [unowned root] in root.setNeedsLayout() }
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    #expect(loop.passCount == 1)
    for expected in 2...4 {
      scheduler.advance(by: .nanoseconds(1))
      #expect(loop.passCount == expected)
      #expect(root.layoutCount == expected)
    }
    loop.stop()
  }

  @Test func theFrameRateCapDelaysTheNextPass() {
    let scheduler = TestScheduler()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 1))
    let loop = RenderLoop(root: root, scheduler: scheduler, minimumInterval: .milliseconds(16))
    scheduler.advance()
    #expect(loop.passCount == 1)
    root.title = "a"
    scheduler.advance()
    #expect(loop.passCount == 1)
    scheduler.advance(by: .milliseconds(15))
    #expect(loop.passCount == 1)
    root.title = "b"
    scheduler.advance(by: .milliseconds(1))
    #expect(loop.passCount == 2)
    #expect(root.snapshot().lines == ["b"])
    scheduler.advance(by: .seconds(1))
    root.title = "c"
    scheduler.advance()
    #expect(loop.passCount == 3)
  }

  @Test func stopCancelsTheScheduledPassAndFinishesReports() {
    let scheduler = TestScheduler()
    let (root, _, loop) = renderedTree(lines: 1, scheduler: scheduler)
    var finished = false
    let cancellable = loop.reports.sink(
      receiveCompletion: { _ in finished = true }, receiveValue: { _ in })
    root.title = "x"
    loop.stop()
    scheduler.advance()
    #expect(loop.passCount == 1)
    #expect(finished)
    #expect(!loop.isRunning)
    root.title = "y"
    #expect(scheduler.pendingCount == 0)
    cancellable.cancel()
  }

  @Test func aSecondLoopOnTheSameRootTakesOver() {
    let scheduler = TestScheduler()
    let (root, _, first) = renderedTree(lines: 1, scheduler: scheduler)
    let second = RenderLoop(root: root, scheduler: scheduler)
    #expect(!first.isRunning)
    root.title = "z"
    scheduler.advance()
    #expect(first.passCount == 1)
    #expect(second.passCount == 1)
  }

  @Test func nodesAddedToARenderedTreeAreRenderedByTheNextPass() {
    let scheduler = TestScheduler()
    let (root, _, loop) = renderedTree(lines: 1, scheduler: scheduler)
    let added = TextLine()
    added.text = "new"
    root.addSubnode(added)
    scheduler.advance()
    #expect(loop.passCount == 2)
    #expect(root.snapshot().lines[1] == "new")
  }

  @Test func droppingTheLoopReleasesItAndStops() {
    let scheduler = TestScheduler()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 1))
    weak var weakLoop: RenderLoop<TestScheduler>?
    do {
      let loop = RenderLoop(root: root, scheduler: scheduler)
      weakLoop = loop
    }
    #expect(weakLoop == nil)
    scheduler.advance()
    root.title = "after"
    #expect(scheduler.pendingCount == 0)
  }
}
