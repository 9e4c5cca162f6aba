import Foundation

/// The action a Foundation `Timer` runs, in a box that can let go of it.
///
/// swift-corelibs-foundation's `Timer` retains itself for its run-loop context and never
/// releases that reference, so on Linux every `Timer`, with the block it was made with,
/// stays allocated for the life of the process, even after it fired or was invalidated.
/// The block therefore holds only this box, and the box drops the action once a one-shot
/// timer has fired or a repeating one was cancelled: what the action captured (an
/// operator's subscription, its subscriber) is freed, and only Foundation's own few
/// bytes remain.
///
/// Unchecked `Sendable`: the action, its state, is only reached under the lock; the timer
/// calls it on its run loop's thread, which is the contract Combine's `Scheduler` has
/// always had.
final class TimerAction: Guarded<(() -> Void)?>, @unchecked Sendable {
  init(_ action: @escaping () -> Void) { super.init(state: action) }

  /// Runs the action, if it was not released.
  func run() {
    lock.lock()
    let current = stateAssumingLocked
    lock.unlock()
    current?()
  }

  /// Runs the action once and releases it.
  func runOnce() { take()?() }

  /// Releases the action without running it (after unlocking: its captures may run any
  /// code as they go).
  func release() { _ = take() }

  /// Takes the action out, leaving none. Not `Optional.take()` inside `withLock`: taking a
  /// closure through those generics reabstracts it, which allocates.
  private func take() -> (() -> Void)? {
    lock.lock()
    defer { lock.unlock() }
    let taken = stateAssumingLocked
    stateAssumingLocked = nil
    return taken
  }
}

/// Invalidates a Foundation `Timer` once and releases its action, then lets go of both.
///
/// Unchecked `Sendable`: the timer is only reached under the lock, and
/// `Timer.invalidate()` may be called from any thread.
final class TimerInvalidation: Guarded<TimerInvalidation.State>, Cancellable,
  @unchecked Sendable
{
  /// The timer and its action until the cancel; guarded by the lock.
  struct State {
    /// The timer to invalidate.
    var timer: Timer?
    /// The action to release.
    var action: TimerAction?
  }

  init(_ timer: Timer, action: TimerAction) {
    super.init(state: State(timer: timer, action: action))
  }

  func cancel() {
    let taken = withLock { state -> State in
      defer { state = State() }
      return state
    }
    taken.timer?.invalidate()
    taken.action?.release()
  }
}
