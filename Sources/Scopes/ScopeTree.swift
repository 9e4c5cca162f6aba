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
  /// `host`, `children`, `slotInHost`, `isRootConnected`, `recordedState` and `isQueued`.
  let lock = Lock()
  /// Nodes waiting for reconciliation; a slot is emptied as its node is taken
  /// (`takeFirst()`), so that the queue never drops the last reference to a node with the
  /// lock held (a scope's deinit takes the lock).
  private var queue = FIFOQueue<Behavior?>()
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
  ///
  /// It also brings the subtree's `Behavior.isRootConnected` in line with the new host,
  /// walking the subtree only when that changes (when it joins or leaves a rooted tree, so
  /// that all of it activates or deactivates anyway).
  func nodeMoved(_ node: Behavior) {
    structureVersion &+= 1
    setRootConnected(node.hostScope?.isRootConnected ?? false, from: node)
    let isAtRest = queue.isEmpty && !isReconciling
    enqueue(node)
    guard !isAtRest, let scope = node as? Scope, !scope.childList.isEmpty else { return }
    var pending = scope.childList.array
    var index = 0
    while index < pending.count {
      let current = pending[index]
      index += 1
      enqueue(current)
      if let scope = current as? Scope { pending += scope.childList.array }
    }
  }

  /// Sets `Behavior.isRootConnected` on `node` and its whole subtree, which always agree.
  /// Lock held.
  private func setRootConnected(_ connected: Bool, from node: Behavior) {
    guard node.isRootConnected != connected else { return }
    guard let scope = node as? Scope, !scope.childList.isEmpty else {
      node.isRootConnected = connected
      return
    }
    var pending = [node]
    while let current = pending.popLast() {
      current.isRootConnected = connected
      guard let scope = current as? Scope else { continue }
      for case let child? in scope.childList.slots { pending.append(child) }
    }
  }

  /// Takes every child out of `scope`, which is being released, and clears their
  /// references to it; returns them in attach order. Lock held.
  func orphanChildren(of scope: Scope) -> [Behavior] {
    guard !scope.childList.isEmpty else { return [] }
    structureVersion &+= 1
    let children = scope.childList.removeAll()
    for child in children { child.hostScope = nil }
    return children
  }

  /// Records that `node` outlives its host, which was released: like any hostless node, it
  /// and its subtree are no longer connected to a root. Lock held.
  func hostWentAway(_ node: Behavior) {
    setRootConnected(false, from: node)
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
      // Taken out of the queue, so that the caller's reference is the queue's.
      guard let node = queue.takeFirst() else {
        // A burst's array goes once drained; a small one is kept for the next.
        if queue.capacity >= 1_024 { queue.removeAll() }
        isReconciling = false
        return nil
      }
      node.isQueued = false
      isReconciling = true
      return node
    }
  }
}
