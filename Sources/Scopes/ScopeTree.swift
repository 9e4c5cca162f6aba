import ReactiveCore

/// The one lock for every scope tree's structure and recorded states, and the queue of
/// nodes whose activity must catch up with the structure.
///
/// Structure (who hosts whom) changes synchronously under ``lock``, so misuse throws at
/// once and changes nothing. Lifecycle callbacks run afterwards, outside that lock, while
/// the calling thread holds ``drainLock``: a second thread waits there until the first
/// has run every queued transition, so each call returns with its own transitions done,
/// and callbacks never run concurrently. A callback that attaches or detaches nodes
/// re-enters on the same thread and only queues more work, which the running drain picks
/// up, so re-entrancy cannot tangle the order.
final class ScopeTree: @unchecked Sendable {
  static let shared = ScopeTree()

  /// The lock that guards the queue and every node's `host`, `children`,
  /// `recordedState` and `isQueued`.
  let lock = Lock()
  private var queue: [Behavior] = []
  private var head = 0

  /// Serializes draining; recursive so that callbacks may call back in.
  private let drainLock = RecursiveLock()
  /// Whether a drain is running on the thread holding `drainLock`; read and written only
  /// with `drainLock` held.
  private var isDraining = false

  /// Queues `node` for reconciliation. Must be called with the lock held.
  func enqueue(_ node: Behavior) {
    guard !node.isQueued else { return }
    node.isQueued = true
    queue.append(node)
  }

  /// Brings every queued node's activity in line with the structure.
  func drain() {
    drainLock.withLock {
      // A call from inside a callback: the drain already running on this thread picks
      // the new work up when the callback returns.
      guard !isDraining else { return }
      isDraining = true
      defer { isDraining = false }
      while let node = next() { node.reconcile() }
    }
  }

  private func next() -> Behavior? {
    lock.withLock {
      guard head < queue.count else {
        queue.removeAll(keepingCapacity: queue.count < 1_024)
        head = 0
        return nil
      }
      let node = queue[head]
      head += 1
      node.isQueued = false
      return node
    }
  }
}
