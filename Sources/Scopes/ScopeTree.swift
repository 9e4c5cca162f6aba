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

  /// The lock that guards the queue, `isReconciling`, `structureVersion` and every node's
  /// `host`, `children`, `recordedState` and `isQueued`.
  let lock = Lock()
  private var queue: [Behavior] = []
  private var head = 0
  /// Whether the draining thread is reconciling a node it took from the queue.
  private var isReconciling = false
  /// Counts structure changes, so that a reconciliation can tell with one read whether a
  /// callback changed the structure, instead of re-reading the node's host chain.
  private(set) var structureVersion: UInt64 = 0

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

  /// Records that `node` moved to another host or was detached, and queues the nodes
  /// whose activity must catch up. Must be called with the lock held.
  ///
  /// At rest (nothing queued, nothing being reconciled) every node is in step with the
  /// structure, so queuing the moved node is enough: its own transitions carry its subtree
  /// along (activation queues its children, deactivation walks them), and if it needs none,
  /// neither does its subtree. During a drain the descendants need not be in step with the
  /// moved node (one may be active under a host whose activation is still queued), so then
  /// the whole subtree is queued, breadth first: the order activation takes anyway, hosts
  /// before their children and siblings in attach order.
  func nodeMoved(_ node: Behavior) {
    structureVersion &+= 1
    let isAtRest = head == queue.count && !isReconciling
    enqueue(node)
    guard !isAtRest, let scope = node as? Scope, !scope.childNodes.isEmpty else { return }
    var pending = scope.childNodes
    var index = 0
    while index < pending.count {
      let current = pending[index]
      index += 1
      enqueue(current)
      if let scope = current as? Scope { pending.append(contentsOf: scope.childNodes) }
    }
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
        isReconciling = false
        return nil
      }
      let node = queue[head]
      head += 1
      node.isQueued = false
      isReconciling = true
      return node
    }
  }
}
