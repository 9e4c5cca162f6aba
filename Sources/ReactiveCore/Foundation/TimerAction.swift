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
/// Unchecked `Sendable`: `action` is only reached under `lock`; the timer calls it on its
/// run loop's thread, which is the contract Combine's `Scheduler` has always had.
final class TimerAction: @unchecked Sendable {
  /// The lock that guards `action`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var action: (() -> Void)?

  init(_ action: @escaping () -> Void) { self.action = action }

  /// Runs the action, if it was not released.
  func run() {
    lock.lock()
    let current = action
    lock.unlock()
    current?()
  }

  /// Runs the action once and releases it.
  func runOnce() {
    lock.lock()
    let taken = action
    action = nil
    lock.unlock()
    taken?()
  }

  /// Releases the action without running it.
  func release() {
    lock.lock()
    let taken = action
    action = nil
    lock.unlock()
    _ = taken
  }
}

/// Invalidates a Foundation `Timer` once and releases its action, then lets go of both.
///
/// Unchecked `Sendable`: the timer is only reached under `lock`, and
/// `Timer.invalidate()` may be called from any thread.
final class TimerInvalidation: Cancellable, @unchecked Sendable {
  /// The lock that guards `timer` and `action`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var timer: Timer?
  @exclusivity(unchecked)
  private var action: TimerAction?

  init(_ timer: Timer, action: TimerAction) {
    self.timer = timer
    self.action = action
  }

  func cancel() {
    let taken = lock.withLock { () -> (Timer?, TimerAction?) in
      defer {
        timer = nil
        action = nil
      }
      return (timer, action)
    }
    taken.0?.invalidate()
    taken.1?.release()
  }
}
