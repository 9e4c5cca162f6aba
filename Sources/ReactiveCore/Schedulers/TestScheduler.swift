/// A virtual-time scheduler: time moves only when you advance it, so code that uses
/// `debounce`, `delay` or delayed work tests deterministically, without sleeping.
///
///     let scheduler = TestScheduler()
///     scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { print("tick") }
///     scheduler.advance(by: .milliseconds(500))   // nothing yet
///     scheduler.advance(by: .milliseconds(500))
///     // Prints "tick"
///
/// Work runs in order of due time, then of submission. Work scheduled for "now" (or the
/// past) while advancing runs in the same advance.
///
/// - Note: Thread-safe: work may be scheduled from any thread; scheduled work runs on the
///   thread that calls `advance` or `run`, never under the scheduler's lock.
public final class TestScheduler: Scheduler, @unchecked Sendable {
  /// The time type of the test scheduler: nanoseconds from zero.
  public typealias SchedulerTimeType = SchedulerInstant
  /// The test scheduler takes no options.
  public typealias SchedulerOptions = Never

  private struct Work {
    var due: SchedulerInstant
    var sequence: Int
    var interval: SchedulerStride?
    var id: Int
    var action: () -> Void
  }

  /// Everything about the scheduler that changes; guarded by its box's lock.
  private struct State {
    /// The current virtual time.
    var clock: SchedulerInstant
    /// The work waiting to run, in submission order.
    var queue: [Work] = []
    /// The sequence number of the work submitted last.
    var nextSequence = 0
    /// The identifiers of repeating work that was cancelled.
    var cancelled: Set<Int> = []
  }

  /// The scheduler's state behind its lock: a box, since a public class cannot subclass
  /// the internal `Guarded`; one allocation per scheduler.
  private let state: LockedBox<State>

  /// Creates a scheduler whose clock starts at `now` (zero by default).
  ///
  /// - Parameter now: The starting instant.
  public init(now: SchedulerInstant = SchedulerInstant(0)) {
    state = LockedBox(State(clock: now))
  }

  /// The scheduler's current virtual time.
  public var now: SchedulerInstant { state.withLock { $0.clock } }

  /// Zero: virtual time has no jitter.
  public var minimumTolerance: SchedulerStride { .zero }

  /// The number of pieces of work waiting to run.
  public var pendingCount: Int { state.withLock { $0.queue.count } }

  /// Schedules the action to run at the current virtual time, on the next advance.
  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    enqueue(due: nil, interval: nil, action)
  }

  /// Schedules the action to run once the clock reaches `date`.
  public func schedule(
    after date: SchedulerInstant, tolerance: SchedulerStride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    enqueue(due: date, interval: nil, action)
  }

  /// Schedules the action at `date` and then every `interval`, until cancelled.
  ///
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerInstant, interval: SchedulerStride, tolerance: SchedulerStride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let id = enqueue(due: date, interval: interval, action)
    return AnyCancellable { [weak self] in
      self?.state.withLock { state in
        state.cancelled.insert(id)
        state.queue.removeAll { $0.id == id }
      }
    }
  }

  @discardableResult
  private func enqueue(
    due: SchedulerInstant?, interval: SchedulerStride?, _ action: @escaping () -> Void
  ) -> Int {
    state.withLock { state in
      state.nextSequence += 1
      let work = Work(
        due: due ?? state.clock, sequence: state.nextSequence, interval: interval,
        id: state.nextSequence, action: action)
      state.queue.append(work)
      return work.id
    }
  }

  /// Advances the clock by `stride`, running every piece of work due up to the new time
  /// in (due time, submission) order; the clock reads each work's due time while it runs.
  ///
  /// - Parameter stride: How far to move the clock; `.zero` runs what is due now.
  public func advance(by stride: SchedulerStride = .zero) {
    advance(to: now.advanced(by: stride))
  }

  /// Advances the clock to `instant`, running everything due up to it.
  ///
  /// - Parameter instant: The time to move to; an earlier time runs what is due now.
  public func advance(to instant: SchedulerInstant) {
    while let work = takeNext(dueBy: instant) {
      work.action()
    }
    state.withLock { state in if state.clock < instant { state.clock = instant } }
  }

  /// Runs every scheduled piece of work, however far in the future, until none is left.
  /// Repeating work would never end, so each repeating action runs once and is dropped.
  public func run() {
    while let work = takeNext(dueBy: nil, repeating: false) {
      work.action()
    }
  }

  private func takeNext(dueBy limit: SchedulerInstant?, repeating: Bool = true) -> Work? {
    state.withLock { state -> Work? in
      guard
        let index = state.queue.indices.min(by: {
          (state.queue[$0].due, state.queue[$0].sequence)
            < (state.queue[$1].due, state.queue[$1].sequence)
        })
      else { return nil }
      let work = state.queue[index]
      if let limit, work.due > limit { return nil }
      state.queue.remove(at: index)
      if work.due > state.clock { state.clock = work.due }
      if repeating, let interval = work.interval, interval > .zero {
        state.nextSequence += 1
        var next = work
        next.due = work.due.advanced(by: interval)
        next.sequence = state.nextSequence
        state.queue.append(next)
      }
      return work
    }
  }
}

extension SchedulerInstant: Comparable {
  /// Orders instants on the clock.
  public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}
