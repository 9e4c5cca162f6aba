// Eight threads at once on a two-core machine changing `@Observable` state that render
// loops on serial queues read. Nodes stay confined to their loop's queue, as the thread
// model requires; only the models, `stop()` and the loop's counters are shared.
// Correctness only: every change is seen by a later pass, on the queue; no timing.

import Dispatch
import Foundation
import Invalidation
import ModelTesting
import Observation
import ReactiveCore
import Synchronization
import Testing

/// An `@Observable`-style model that any thread may change: its value sits behind
/// ReactiveCore's lock, which the thread sanitizer sees.
private final class Tally: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let storage = LockedBox(0)

  var value: Int {
    registrar.access(self, keyPath: \.value)
    return storage.withLock { $0 }
  }

  func increment() {
    registrar.withMutation(of: self, keyPath: \.value) { storage.withLock { $0 += 1 } }
  }
}

/// A number any thread may read and change.
private final class Counter: Sendable {
  let value = Atomic<Int>(0)
}

/// A node that reads its tally in exactly one phase and remembers what it read; it counts
/// reads made off its loop's queue, or after it was taken out of the tree.
private final class TallyReader: HeadlessNode {
  let tally: Tally
  let phase: InvalidationKind
  let queueKey: DispatchSpecificKey<Int>
  /// Shared by every node of a test.
  let offQueue: Counter
  let afterRemoval: Counter
  // Touched only on the loop's queue.
  var removed = false
  private(set) var lastSeen = 0
  private(set) var wentBack = 0
  private(set) var reads = 0

  init(
    tally: Tally, phase: InvalidationKind, queueKey: DispatchSpecificKey<Int>, offQueue: Counter,
    afterRemoval: Counter
  ) {
    self.tally = tally
    self.phase = phase
    self.queueKey = queueKey
    self.offQueue = offQueue
    self.afterRemoval = afterRemoval
    super.init(frame: Rect(x: 0, y: 0, width: 8, height: 1))
  }

  private func read(in phase: InvalidationKind) {
    guard phase == self.phase else { return }
    if DispatchQueue.getSpecific(key: queueKey) == nil { offQueue.value.add(1, ordering: .relaxed) }
    if removed { afterRemoval.value.add(1, ordering: .relaxed) }
    let value = tally.value
    if value < lastSeen { wentBack += 1 }
    lastSeen = value
    reads += 1
  }

  override func updateConfiguration() { read(in: .configuration) }
  override func updateConstraints() { read(in: .constraints) }
  override func layout() { read(in: .layout) }
  override func draw(in canvas: inout TextCanvas) { read(in: .display) }
  override var intrinsicContentSize: Size {
    read(in: .intrinsicContentSize)
    return frame.size
  }
}

/// Carries what is not `Sendable` (nodes) to code that runs it on the nodes' queue.
private struct Shared<Value>: @unchecked Sendable {
  let value: Value
}

/// One render loop on a serial queue of its own, over a root with one reader per tally.
private struct LoopedTree {
  let queue: DispatchQueue
  let key = DispatchSpecificKey<Int>()
  let root = HeadlessNode(frame: Rect(x: 0, y: 0, width: 8, height: 8))
  let loop: RenderLoop<DispatchQueue>
  let offQueue = Counter()
  let afterRemoval = Counter()

  init(_ label: String, tallies: [Tally], phase: InvalidationKind) {
    queue = DispatchQueue(label: label)
    queue.setSpecific(key: key, value: 1)
    for tally in tallies {
      root.addSubnode(
        TallyReader(
          tally: tally, phase: phase, queueKey: key, offQueue: offQueue,
          afterRemoval: afterRemoval))
    }
    // Built on the queue, so that the first pass (scheduled at once) finds it whole.
    let (root, queue) = (Shared(value: root), queue)
    loop = queue.sync { RenderLoop(root: root.value, scheduler: queue) }
  }

  /// The readers still in the tree, read on the queue.
  func readers<T>(_ body: ([TallyReader]) -> T) -> T {
    queue.sync { body(root.subnodes.map { $0 as! TallyReader }) }
  }

  /// Lets the queue run until every reader in the tree has read its tally's current
  /// value, and says whether that happened. Bounded, so that a change no pass ever sees
  /// fails the test instead of hanging it; the bound is not a deadline anything must meet.
  func settle() -> Bool {
    for _ in 0..<20_000 {
      if readers({ $0.allSatisfy { $0.lastSeen == $0.tally.value } }) { return true }
      Thread.sleep(forTimeInterval: 0.000_5)
    }
    return false
  }
}

/// Proves, with eight threads released together (more threads than cores), the render
/// loop's thread model: an `@Observable` change made on any thread is carried to the node
/// on the loop's queue and read by a later pass, whatever the phase that read it; `stop()`
/// from another thread lets at most the pass under way finish and ignores every later
/// change; a node taken out of the tree is never read again and is released.
@Suite struct OversubscribedStressTests {
  static let threads = 8

  /// Eight threads each increment their own tally while two loops, each on its own
  /// serial queue, render trees whose readers read every tally in `phase`: every reader
  /// ends up having read its tally's final value, never an older value than one it read
  /// before, and every read ran on its loop's queue.
  @Test(arguments: [
    InvalidationKind.configuration, .constraints, .layout, .display, .intrinsicContentSize,
  ])
  func changesFromEightThreadsReachEveryPhaseOnItsQueue(phase: InvalidationKind) {
    let perThread = 1_000
    let tallies = (0..<Self.threads).map { _ in Tally() }
    let trees = ["a", "b"].map {
      LoopedTree("ripple.oversubscribed.\($0)", tallies: tallies, phase: phase)
    }
    onThreadsAtOnce(Self.threads) { thread in
      for step in 0..<perThread {
        if step % 16 == 0 { yieldToOtherThreads() }
        tallies[thread].increment()
      }
    }
    #expect(tallies.allSatisfy { $0.value == perThread })
    for tree in trees {
      #expect(tree.settle(), "a change was never seen by a pass")
      #expect(tree.readers { $0.allSatisfy { $0.wentBack == 0 && $0.reads >= 1 } })
      #expect(tree.offQueue.value.load(ordering: .relaxed) == 0, "a node was read off its queue")
      #expect(tree.loop.passCount > 0)
      tree.loop.stop()
    }
  }

  /// One thread stops the loop halfway through its changes while seven others keep
  /// changing their tallies and reading the loop's counters: after `stop()` returns at
  /// most the pass under way completes, `reports` finishes once, and later changes run
  /// no phase at all.
  @Test func stopFromOneThreadWhileSevenChange() {
    let perThread = 1_000
    let tallies = (0..<Self.threads).map { _ in Tally() }
    let tree = LoopedTree("ripple.oversubscribed.stop", tallies: tallies, phase: .display)
    let loop = tree.loop
    let reports = Counter()
    let completions = Counter()
    let reportsAfterCompletion = Counter()
    let cancellable = loop.reports.sink(
      receiveCompletion: { _ in completions.value.add(1, ordering: .sequentiallyConsistent) },
      receiveValue: { _ in
        if completions.value.load(ordering: .sequentiallyConsistent) > 0 {
          reportsAfterCompletion.value.add(1, ordering: .relaxed)
        }
        reports.value.add(1, ordering: .relaxed)
      })
    let passesAtStop = Counter()
    let runningAfterStop = Counter()
    onThreadsAtOnce(Self.threads) { thread in
      var stopped = false
      for step in 0..<perThread {
        if step % 16 == 0 { yieldToOtherThreads() }
        tallies[thread].increment()
        if thread == 0 && step == perThread / 2 {
          loop.stop()
          passesAtStop.value.store(loop.passCount, ordering: .relaxed)
          stopped = true
        }
        if stopped && loop.isRunning { runningAfterStop.value.add(1, ordering: .relaxed) }
        _ = loop.lastReport
      }
    }
    // Let whatever was queued before the stop run out.
    for _ in 0..<3 { tree.queue.sync {} }
    let passes = loop.passCount
    #expect(passes <= passesAtStop.value.load(ordering: .relaxed) + 1)
    #expect(!loop.isRunning)
    #expect(runningAfterStop.value.load(ordering: .relaxed) == 0)
    #expect(completions.value.load(ordering: .relaxed) == 1)
    #expect(reportsAfterCompletion.value.load(ordering: .relaxed) == 0)
    #expect(reports.value.load(ordering: .relaxed) <= passes)
    let readsBefore = tree.readers { $0.map(\.reads) }
    onThreadsAtOnce(Self.threads) { thread in
      for _ in 0..<100 { tallies[thread].increment() }
    }
    for _ in 0..<3 { tree.queue.sync {} }
    #expect(tree.readers { $0.map(\.reads) } == readsBefore, "a stopped loop ran a phase")
    #expect(loop.passCount == passes)
    #expect(tree.offQueue.value.load(ordering: .relaxed) == 0, "a node was read off its queue")
    cancellable.cancel()
  }

  /// A weak reference to a node taken out of the tree.
  private struct WeakReader: @unchecked Sendable {
    weak var object: TallyReader?
  }

  /// Seven threads change their tallies while the eighth takes four readers out of the
  /// tree, one at a time, on the loop's queue: no reader is read after it left, each one
  /// that left is released, and the readers still in the tree see their final values.
  @Test func readersTakenOutWhileSevenThreadsChange() {
    let perThread = 1_000
    let tallies = (0..<Self.threads).map { _ in Tally() }
    let tree = LoopedTree("ripple.oversubscribed.remove", tallies: tallies, phase: .display)
    let shared = Shared(value: tree)
    let removed = LockedBox<[WeakReader]>([])
    onThreadsAtOnce(Self.threads) { thread in
      guard thread == 0 else {
        for step in 0..<perThread {
          if step % 16 == 0 { yieldToOtherThreads() }
          tallies[thread].increment()
        }
        return
      }
      for _ in 0..<4 {
        for step in 0..<(perThread / 4) {
          if step % 16 == 0 { yieldToOtherThreads() }
          tallies[0].increment()
        }
        let tree = shared.value
        tree.queue.sync {
          let reader = tree.root.subnodes[0] as! TallyReader
          reader.removed = true
          reader.removeFromParent()
          removed.withLock { $0.append(WeakReader(object: reader)) }
        }
      }
    }
    #expect(tree.settle(), "a change was never seen by a pass")
    #expect(tree.readers { $0.count } == Self.threads - 4)
    // A change for each reader that left reaches its registration, which cancels it.
    for tally in tallies { tally.increment() }
    #expect(tree.settle(), "a change was never seen by a pass")
    #expect(removed.withLock { $0.allSatisfy { $0.object == nil } }, "a removed node was kept")
    #expect(tree.afterRemoval.value.load(ordering: .relaxed) == 0, "a removed node was read")
    #expect(tree.offQueue.value.load(ordering: .relaxed) == 0, "a node was read off its queue")
    tree.loop.stop()
  }
}
