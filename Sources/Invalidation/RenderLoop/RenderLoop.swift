import ReactiveCore

/// The UIKit update cycle for a headless tree: invalidations anywhere in the tree are
/// coalesced into one render pass, run on a scheduler.
///
///     let scheduler = TestScheduler()
///     let loop = RenderLoop(root: screen, scheduler: scheduler)
///     let trace = loop.reports.sink { print($0) }
///     for _ in 0..<1_000 { badge.cornerRadius += 1 }
///     scheduler.advance()
///     // Prints "nodes: 2 · laid out: 1 · drawn: 0"
///
/// The first invalidation of a clean tree schedules one pass on ``scheduler``; any number
/// of further invalidations before it runs join that pass, and an idle tree schedules
/// nothing. With a `TestScheduler`, `advance()` runs exactly the pending pass, so tests
/// need no sleeps.
///
/// Invalidations made during a pass are handled as UIKit handles them: a layout request
/// for a node the pass has not laid out yet (a parent giving its child a new frame) is
/// served by the same pass; anything else (a node invalidating one already visited)
/// schedules the next pass, due one tick later (one nanosecond, or ``minimumInterval``):
/// with a `TestScheduler`, `advance()` runs one pass and `advance(by: .nanoseconds(1))`
/// the next. A pass never loops, and neither does `advance()`.
///
/// `@Observable` properties read by a node's override points during a pass are tracked:
/// a later change invalidates exactly that phase of that node — a read in
/// `draw(in:)` calls `setNeedsDisplay()`, in `layout()` `setNeedsLayout()`, in
/// `updateConstraints()` `setNeedsUpdateConstraints()`, in `updateConfiguration()`
/// `setNeedsUpdateConfiguration()`, in `intrinsicContentSize`
/// `invalidateIntrinsicContentSize()` — and so schedules a pass. Only passes the loop runs
/// track reads; a node removed from the tree is no longer invalidated by the loop (see
/// <doc:ObservationDrivenInvalidation>).
///
/// # Thread safety
/// The tree stays confined to the scheduler's thread: passes run there, and so must your
/// mutations of nodes. Use a serial scheduler (a serial `DispatchQueue`, `RunLoop.main`,
/// a `TestScheduler`). ``stop()`` and the loop's properties may be used from any thread,
/// and `@Observable` models may change on any thread: the change is carried to the node
/// on the scheduler. The loop's own state is guarded by one lock, never held while a node,
/// a subscriber or the scheduler runs.
public final class RenderLoop<S: Scheduler>: @unchecked Sendable {
  /// The root of the tree the loop renders; held strongly.
  public let root: HeadlessNode
  /// Where passes (and observed invalidations) run.
  public let scheduler: S
  /// The shortest time between the starts of two passes, or `nil` for no cap.
  public let minimumInterval: S.SchedulerTimeType.Stride?

  /// The lock that guards `state` and `lastPassStart`, read or written from any thread.
  /// Fields of the loop, not a `LockedBox` (ReactiveCore's `Guarded` cannot be subclassed
  /// outside it, and a public class could not expose it anyway): the per-pass path takes
  /// the lock with `lock()`/`unlock()` and returns early, with no closure and no second
  /// object.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var state = RenderLoopState()
  /// When the last pass started; meaningful once `state.hasRunPass`.
  @exclusivity(unchecked)
  private var lastPassStart: S.SchedulerTimeType
  private let subject = PassthroughSubject<RenderReport, Never>()

  /// Creates a loop and starts it: if the tree has anything to do, its first pass is
  /// scheduled at once.
  ///
  /// - Parameters:
  ///   - root: The tree to render. A root has one loop at a time: a new loop on the same
  ///     root takes over, and the old one stops.
  ///   - scheduler: A serial scheduler; passes run on it.
  ///   - minimumInterval: The shortest time between the starts of two passes (a frame
  ///     rate cap), or `nil` to run each pass as soon as the scheduler can.
  public init(
    root: HeadlessNode, scheduler: S, minimumInterval: S.SchedulerTimeType.Stride? = nil
  ) {
    self.root = root
    self.scheduler = scheduler
    self.minimumInterval = minimumInterval
    lastPassStart = scheduler.now
    if let previous = root.host as? any RenderLoopStopping { previous.stopDriving() }
    root.host = self
    if root.treeNeedsPass { schedulePass() }
  }

  /// Every pass's report, delivered on the scheduler right after the pass; finishes when
  /// the loop stops.
  public var reports: AnyPublisher<RenderReport, Never> { subject.eraseToAnyPublisher() }

  /// The number of passes run so far.
  public var passCount: Int { lock.withLock { state.passCount } }

  /// The last pass's report, or `nil` before the first pass.
  public var lastReport: RenderReport? { lock.withLock { state.lastReport } }

  /// Whether a pass waits on the scheduler.
  public var isPassScheduled: Bool { lock.withLock { state.isPassScheduled } }

  /// Whether the loop still schedules passes.
  public var isRunning: Bool { lock.withLock { !state.isStopped } }

  /// Stops the loop: a scheduled pass does not run, no new one is scheduled, observed
  /// changes are ignored, and ``reports`` finishes. The tree stays as it is.
  public func stop() {
    let (wasRunning, pending) = lock.withLock {
      let wasRunning = !state.isStopped
      state.isStopped = true
      defer { state.pendingObservations.removeAll() }
      return (wasRunning, state.pendingObservations)
    }
    for observer in pending { observer.stopTracking() }
    if wasRunning { subject.send(completion: .finished) }
  }

  /// Schedules a pass even if nothing is dirty, for example after the output was lost
  /// (a terminal resized). Joins a pass already scheduled.
  public func setNeedsPass() {
    schedulePass()
  }

  // MARK: Scheduling

  private func schedulePass(followingPass: Bool = false) {
    // Plain lock/unlock and non-generic state: this runs for every pass, and a generic
    // value returned through `withLock` would look up its type metadata each time.
    lock.lock()
    if state.isStopped || state.isPassScheduled {
      lock.unlock()
      return
    }
    state.isPassScheduled = true
    let hasRunPass = state.hasRunPass
    let last = lastPassStart
    lock.unlock()
    // A pass requested by the pass before it waits one tick, so that a scheduler that
    // runs everything due "now" (a `TestScheduler`'s `advance()`) still stops after one
    // pass, even under a node that invalidates itself on every layout.
    let delay: S.SchedulerTimeType.Stride? =
      hasRunPass ? (minimumInterval ?? (followingPass ? .nanoseconds(1) : nil)) : nil
    // Scheduling happens outside the lock: a scheduler may run the action at once.
    if let delay, case let due = last.advanced(by: delay), due > scheduler.now {
      scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: nil) {
        [weak self] in self?.runPass()
      }
    } else {
      scheduler.schedule(options: nil) { [weak self] in self?.runPass() }
    }
  }

  private func runPass() {
    let now = scheduler.now
    let proceed = lock.withLock {
      guard !state.isStopped else { return false }
      state.isPassScheduled = false
      state.isInPass = true
      state.invalidatedDuringPass = false
      state.hasRunPass = true
      lastPassStart = now
      return true
    }
    guard proceed else { return }
    let report = root.renderPass(tracker: self)
    let invalidatedDuringPass = lock.withLock {
      state.isInPass = false
      state.passCount += 1
      state.lastReport = report
      return state.invalidatedDuringPass
    }
    subject.send(report)
    // Only a walk of the tree can tell whether the pass served every request made during
    // it; it runs only when there was one.
    if invalidatedDuringPass && root.treeNeedsPass { schedulePass(followingPass: true) }
  }

  // MARK: Observed changes

  /// Called on any thread by a phase observer whose tracked read changed: the
  /// invalidation itself runs on the scheduler, in one drain for any number of changes.
  func observedChange(_ observer: PhaseObserver) {
    // A registration stays installed until the phase runs again, so a burst of changes
    // calls back many times: the observer is enqueued once.
    guard observer.markPending() else { return }
    let (scheduleDrain, isStopped) = lock.withLock {
      guard !state.isStopped else { return (false, true) }
      state.pendingObservations.append(observer)
      if state.isDrainScheduled { return (false, false) }
      state.isDrainScheduled = true
      return (true, false)
    }
    if isStopped {
      // A stopped loop tracks nothing: let the registration go.
      observer.clearPending()
      observer.stopTracking()
    } else if scheduleDrain {
      scheduler.schedule(options: nil) { [weak self] in self?.drainObservations() }
    }
  }

  private func drainObservations() {
    let observers = lock.withLock {
      state.isDrainScheduled = false
      defer { state.pendingObservations.removeAll(keepingCapacity: true) }
      return state.pendingObservations
    }
    for observer in observers {
      observer.clearPending()
      // A node that left the tree (or was released) is no longer this loop's to touch,
      // nor to track.
      guard let node = observer.node, node.isInTree(of: root) else {
        observer.stopTracking()
        continue
      }
      observer.phase.invalidate(node)
    }
  }
}

extension RenderLoop: RenderHost {
  func treeDidBecomeDirty() {
    // Called once per node that turns dirty, so the common case — a pass is already
    // scheduled — must stay cheap: one lock, plain `Bool`s (no generic metadata).
    lock.lock()
    let schedule = !state.isInPass && !state.isPassScheduled && !state.isStopped
    if state.isInPass { state.invalidatedDuringPass = true }
    lock.unlock()
    if schedule { schedulePass() }
  }
}

/// Lets a new loop stop the loop that drove the same root before, whatever its scheduler.
protocol RenderLoopStopping: AnyObject {
  func stopDriving()
}

extension RenderLoop: RenderLoopStopping {
  func stopDriving() { stop() }
}

/// The loop's flags and counters, in a type that does not depend on the scheduler, so
/// reading them needs no generic metadata.
private struct RenderLoopState {
  var isPassScheduled = false
  var isInPass = false
  var invalidatedDuringPass = false
  var isStopped = false
  var hasRunPass = false
  var passCount = 0
  var lastReport: RenderReport?
  var pendingObservations: [PhaseObserver] = []
  var isDrainScheduled = false
}
