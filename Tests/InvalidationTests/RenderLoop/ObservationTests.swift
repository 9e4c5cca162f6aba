import Dispatch
import Invalidation
import Observation
import ReactiveCore
import Synchronization
import Testing

@Observable final class ScreenModel {
  var title = "first"
  var width = 4
  var untouched = 0
}

/// A node that reads the model in exactly one phase, chosen by the test.
final class Reader: HeadlessNode {
  let model: ScreenModel
  let phase: InvalidationKind
  init(model: ScreenModel, phase: InvalidationKind) {
    self.model = model
    self.phase = phase
    super.init(frame: Rect(x: 0, y: 0, width: 10, height: 1))
  }
  override func updateConfiguration() { if phase == .configuration { _ = model.title } }
  override func updateConstraints() { if phase == .constraints { _ = model.title } }
  override func layout() { if phase == .layout { _ = model.title } }
  override func draw(in canvas: inout TextCanvas) {
    if phase == .display { canvas.draw(model.title, at: .zero) }
  }
  override var intrinsicContentSize: Size {
    phase == .intrinsicContentSize ? Size(width: model.width, height: 1) : frame.size
  }
}

/// A thread-safe `@Observable`-style model: its value sits behind a lock, so it may
/// change on any thread. (ReactiveCore's lock, which the thread sanitizer can see; it
/// cannot see `Synchronization.Mutex`.)
final class SharedCounter: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let storage = LockedBox(0)
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return storage.withLock { $0 }
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) { storage.withLock { $0 = newValue } }
    }
  }
  func increment() {
    registrar.withMutation(of: self, keyPath: \.value) { storage.withLock { $0 += 1 } }
  }
}

/// Draws the shared counter.
final class CounterLabel: HeadlessNode {
  let counter: SharedCounter
  init(counter: SharedCounter) {
    self.counter = counter
    super.init(frame: Rect(x: 0, y: 0, width: 10, height: 1))
  }
  override func draw(in canvas: inout TextCanvas) { canvas.draw("\(counter.value)", at: .zero) }
}

@Suite struct ObservationInvalidationTests {
  @Test(arguments: [
    InvalidationKind.configuration, .constraints, .layout, .display, .intrinsicContentSize,
  ])
  func aReadInAPhaseInvalidatesExactlyThatPhase(phase: InvalidationKind) {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    let reader = Reader(model: model, phase: phase)
    root.addSubnode(reader)
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    var received: [InvalidationKind] = []
    let cancellable = reader.invalidations.sink { received.append($0) }
    model.title = "second"
    model.width = 7
    #expect(received.isEmpty)  // the invalidation runs on the scheduler
    scheduler.advance()
    #expect(received == [phase])
    #expect(loop.passCount == 2)
    cancellable.cancel()
  }

  @Test func aChangeRedrawsWithTheNewValue() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    let loop = RenderLoop(root: reader, scheduler: scheduler)
    scheduler.advance()
    model.title = "second"
    scheduler.advance()
    #expect(reader.snapshot().lines == ["second"])
    #expect(loop.lastReport?.drawn == 1)
    #expect(loop.lastReport?.laidOut == 0)
    // Tracking is renewed by each run of the phase.
    model.title = "third"
    scheduler.advance()
    #expect(reader.snapshot().lines == ["third"])
    #expect(loop.passCount == 3)
  }

  @Test func anIntrinsicSizeReadRelaysOutTheParent() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    let reader = Reader(model: model, phase: .intrinsicContentSize)
    root.addSubnode(reader)
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    let rootLayouts = root.layoutCount
    model.width = 9
    scheduler.advance()
    #expect(root.layoutCount == rootLayouts + 1)
    #expect(loop.passCount == 2)
  }

  @Test func aPropertyNobodyReadSchedulesNothing() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    let loop = RenderLoop(root: reader, scheduler: scheduler)
    scheduler.advance()
    model.untouched += 1
    #expect(scheduler.pendingCount == 0)
    scheduler.advance()
    #expect(loop.passCount == 1)
  }

  @Test func manyChangesJoinOnePass() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 100))
    let readers = (0..<50).map { _ in Reader(model: model, phase: .display) }
    for reader in readers { root.addSubnode(reader) }
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    for step in 0..<1_000 { model.title = "t\(step)" }
    scheduler.advance()
    #expect(loop.passCount == 2)
    #expect(loop.lastReport?.drawn == 50)
    #expect(readers.allSatisfy { $0.displayCount == 2 })
  }

  @Test(arguments: [10, 100])
  func aPhaseThatRerunsForOtherReasonsStillInvalidatesOnce(reruns: Int) {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    let loop = RenderLoop(root: reader, scheduler: scheduler)
    scheduler.advance()
    model.title = "second"  // from here on, each draw installs a lasting registration
    scheduler.advance()
    for _ in 0..<reruns {
      reader.setNeedsDisplay()
      scheduler.advance()
    }
    #expect(reader.displayCount == reruns + 2)
    model.title = "changed"
    scheduler.advance()
    #expect(reader.displayCount == reruns + 3)
    #expect(reader.snapshot().lines == ["changed"])
    #expect(loop.passCount == reruns + 3)
    #expect(scheduler.pendingCount == 0)
    // The registrations that piled up cancelled themselves; tracking goes on.
    model.title = "again"
    scheduler.advance()
    #expect(reader.snapshot().lines == ["again"])
    #expect(loop.passCount == reruns + 4)
  }

  @Test func aPropertyFirstReadInARerunIsTracked() {
    final class Switching: HeadlessNode {
      let model: ScreenModel
      @Invalidating(.display) var showsWidth = false
      init(model: ScreenModel) {
        self.model = model
        super.init(frame: Rect(x: 0, y: 0, width: 10, height: 1))
      }
      override func draw(in canvas: inout TextCanvas) {
        canvas.draw(showsWidth ? "\(model.width)" : model.title, at: .zero)
      }
    }
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let node = Switching(model: model)
    let loop = RenderLoop(root: node, scheduler: scheduler)
    scheduler.advance()
    model.title = "second"
    scheduler.advance()
    node.showsWidth = true  // the draw now reads `width`, which nothing changed yet
    scheduler.advance()
    model.width = 12
    scheduler.advance()
    #expect(node.snapshot().lines == ["12"])
    #expect(loop.passCount == 4)
  }

  @Test func withoutALoopNothingIsTracked() {
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    reader.renderPass()
    model.title = "second"
    #expect(!reader.needsDisplay)
  }

  @Test func aRemovedNodeStopsBeingTrackedAndIsReleased() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    weak var weakReader: Reader?
    let loop = RenderLoop(root: root, scheduler: scheduler)
    do {
      let reader = Reader(model: model, phase: .display)
      weakReader = reader
      root.addSubnode(reader)
      scheduler.advance()
      #expect(reader.displayCount == 1)
      reader.removeFromParent()
      scheduler.advance()
    }
    #expect(weakReader == nil)
    let passes = loop.passCount
    model.title = "after removal"
    scheduler.advance()
    #expect(loop.passCount == passes)
  }

  @Test func aRemovedNodesRegistrationIsCancelledAtItsFirstChange() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    let reader = Reader(model: model, phase: .display)
    root.addSubnode(reader)
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    model.title = "second"  // the second draw tracks with a lasting registration
    scheduler.advance()
    #expect(reader.displayCount == 2)
    reader.removeFromParent()
    scheduler.advance()
    model.title = "third"
    #expect(scheduler.pendingCount == 1)  // the drain, which finds the node gone
    scheduler.advance()
    model.title = "fourth"
    #expect(scheduler.pendingCount == 0)
    #expect(reader.displayCount == 2)
    #expect(loop.passCount == 3)
  }

  @Test func aBurstOfChangesEnqueuesTheNodeOnce() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    let loop = RenderLoop(root: reader, scheduler: scheduler)
    scheduler.advance()
    model.title = "a"
    scheduler.advance()
    for step in 0..<100 { model.title = "burst \(step)" }
    #expect(scheduler.pendingCount == 1)
    scheduler.advance()
    #expect(reader.snapshot().lines == ["burst 99"])
    #expect(loop.passCount == 3)
  }

  @Test func aDetachedButLiveNodeIsNotTouchedByTheLoop() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 2))
    let reader = Reader(model: model, phase: .display)
    root.addSubnode(reader)
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    reader.removeFromParent()
    scheduler.advance()
    let passes = loop.passCount
    model.title = "after removal"
    scheduler.advance()
    #expect(!reader.needsDisplay)
    #expect(loop.passCount == passes)
  }

  @Test func aDroppedLoopIsReleasedAndLaterChangesAreHarmless() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    weak var weakLoop: RenderLoop<TestScheduler>?
    do {
      let loop = RenderLoop(root: reader, scheduler: scheduler)
      weakLoop = loop
      scheduler.advance()
    }
    #expect(weakLoop == nil)
    model.title = "no loop"
    scheduler.advance()
    #expect(reader.displayCount == 1)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aStoppedLoopIgnoresChanges() {
    let scheduler = TestScheduler()
    let model = ScreenModel()
    let reader = Reader(model: model, phase: .display)
    let loop = RenderLoop(root: reader, scheduler: scheduler)
    scheduler.advance()
    loop.stop()
    model.title = "stopped"
    scheduler.advance()
    #expect(reader.displayCount == 1)
    #expect(loop.passCount == 1)
  }

  @Test func aChangeOnAnotherThreadReachesTheNodeOnTheScheduler() async {
    let scheduler = TestScheduler()
    let counter = SharedCounter()
    let label = CounterLabel(counter: counter)
    let loop = RenderLoop(root: label, scheduler: scheduler)
    scheduler.advance()
    await Task.detached { counter.value = 42 }.value
    #expect(label.displayCount == 1)  // nothing ran off the scheduler
    scheduler.advance()
    #expect(label.snapshot().lines == ["42"])
    #expect(loop.passCount == 2)
  }
}

@Suite struct ObservationStressTests {
  @Test func changesFromManyThreadsWhileTheLoopRuns() {
    let scheduler = TestScheduler()
    let counter = SharedCounter()
    let root = Column(frame: Rect(x: 0, y: 0, width: 10, height: 8))
    let labels = (0..<8).map { _ in CounterLabel(counter: counter) }
    for label in labels { root.addSubnode(label) }
    let loop = RenderLoop(root: root, scheduler: scheduler)
    scheduler.advance()
    let threads = 4
    let perThread = 2_000
    let done = Atomic(0)
    let group = DispatchGroup()
    for _ in 0..<threads {
      DispatchQueue.global().async(group: group) {
        for _ in 0..<perThread { counter.increment() }
        done.add(1, ordering: .releasing)
      }
    }
    // The test thread is the loop's thread: it keeps rendering while the others write.
    while done.load(ordering: .acquiring) < threads { scheduler.advance() }
    group.wait()
    scheduler.advance()
    let expected = "\(threads * perThread)"
    #expect(labels.allSatisfy { $0.snapshot().lines == [expected] })
    #expect(loop.passCount >= 2)
    #expect(scheduler.pendingCount == 0)
    // Still tracked after the storm.
    counter.value = -1
    scheduler.advance()
    #expect(labels.allSatisfy { $0.snapshot().lines == ["-1"] })
  }
}
