import ReactiveCore

/// A node of work whose subscriptions and tasks live exactly as long as it is active.
///
///     final class Clock: Behavior {
///         override func willActivate(cancellables: inout Set<AnyCancellable>) {
///             ticks.sink { print($0) }.store(in: &cancellables)   // cancelled on deactivation
///         }
///     }
///
/// A behavior is ``ActivityState/active`` exactly when it is attached to an active host.
/// Override the lifecycle methods you need; you do not have to call `super`.
///
/// Order: activation runs host first (top-down), siblings in attach order; deactivation
/// runs children first (bottom-up), siblings in reverse order. Each node's callbacks run
/// willAttach → willActivate → … → willDeactivate → (cancellables cancelled) →
/// didDeactivate → willDetach → didDetach. Moving a node between hosts runs no attach or
/// detach callbacks, only the activity transitions the move needs.
///
/// - Note: Thread-safe. Structure changes are atomic and throw before changing anything.
///   Lifecycle callbacks never run concurrently: they run on the calling thread, and a
///   call from another thread waits until they are done, so every call returns with its
///   transitions complete. No state lock is held while a callback runs (only the
///   recursive lock that serializes transitions). Callbacks may attach, detach, host or
///   evict any node; such calls are queued and run right after the callback returns.
///   The class is not marked `Sendable`, so that your subclasses need not be; hand a
///   node to another thread or a `@Sendable` closure with ``SendableNode``.
open class Behavior: CustomDebugStringConvertible {
  // Guarded by ScopeTree.shared.lock.
  weak var hostScope: Scope?
  var recordedState: ActivityState
  var isQueued = false
  /// This node's index in its host's `Scope.childList`, or -1 without a host.
  var slotInHost = -1
  /// Whether the chain of hosts above this node ends in a `RootScope` (a root is
  /// connected itself): what makes a node active. Kept in step by
  /// `ScopeTree.nodeMoved(_:)` for the whole moved subtree, so that reading it is O(1)
  /// however deep the node is.
  var isRootConnected = false

  // Touched only by the draining thread (callbacks never run concurrently).
  private var cancellables = Set<AnyCancellable>()
  private var tasks: [Task<Void, Never>] = []
  /// Whether this node's deactivation is under way (from its children's callbacks to its
  /// own `didDeactivate`), so that a nested walk does not deactivate it a second time.
  private var isDeactivating = false

  /// The lock that guards `operations`, which any thread may append to.
  private let operationLock = Lock()
  private var operations: [@Sendable () async -> Void] = []

  private let stateSubject: CurrentValueSubject<ActivityState, Never>

  /// Creates a detached behavior.
  public init() {
    recordedState = .detached
    stateSubject = CurrentValueSubject(.detached)
  }

  init(alwaysActive: Void) {
    recordedState = .active
    isRootConnected = true
    stateSubject = CurrentValueSubject(.active)
  }

  /// The behavior's current activity state. O(1).
  public var state: ActivityState { ScopeTree.shared.lock.withLock { recordedState } }

  /// The scope hosting this behavior, if any.
  public var host: Scope? { ScopeTree.shared.lock.withLock { hostScope } }

  /// The activity state now and after each change.
  public var statePublisher: AnyPublisher<ActivityState, Never> {
    stateSubject.eraseToAnyPublisher()
  }

  // MARK: Structure

  /// Attaches the behavior to `host`, moving it from any previous host. Attaching to the
  /// current host does nothing.
  ///
  /// - Parameter host: The scope to attach to.
  /// - Throws: ``ScopeError/cycle(node:host:)`` if `host` is this node or inside its
  ///   subtree, ``ScopeError/rootCannotBeAttached(root:)`` for a ``RootScope``. Nothing
  ///   changes when it throws.
  /// - Complexity: O(1) for the structure change, however many children `host` has (a
  ///   scope with children of its own also walks `host`'s chain of hosts to rule out a
  ///   cycle), plus the lifecycle callbacks the move runs.
  public func attach(to host: Scope) throws(ScopeError) {
    let tree = ScopeTree.shared
    try tree.lock.withLock { () throws(ScopeError) -> Void in
      if self is RootScope { throw ScopeError.rootCannotBeAttached(root: nodeName) }
      // Only a node with children can be an ancestor of `host`.
      let hasChildren = (self as? Scope).map { !$0.childList.isEmpty } ?? false
      var ancestor: Scope? = hasChildren ? host : nil
      while let current = ancestor {
        if current === self { throw ScopeError.cycle(node: nodeName, host: host.nodeName) }
        ancestor = current.hostScope
      }
      if host === self { throw ScopeError.cycle(node: nodeName, host: host.nodeName) }
      guard hostScope !== host else { return }
      hostScope?.childList.remove(self)
      host.childList.append(self)
      hostScope = host
      tree.nodeMoved(self)
    }
    tree.drain()
  }

  /// Detaches the behavior from its host; does nothing if it has none.
  ///
  /// - Complexity: O(1) for the structure change, however many siblings the behavior
  ///   has, plus the lifecycle callbacks the detach runs (for an active scope, those of
  ///   its whole subtree).
  public func detach() {
    let tree = ScopeTree.shared
    tree.lock.withLock {
      guard let current = hostScope else { return }
      current.childList.remove(self)
      hostScope = nil
      tree.nodeMoved(self)
    }
    tree.drain()
  }

  // MARK: Async work

  /// Runs `operation` in a task whenever the behavior is active: now if it is active,
  /// and again on every later activation. The task is cancelled on deactivation.
  ///
  ///     behavior.whileActive {
  ///         for await event in events { handle(event) }
  ///     }
  ///
  /// - Parameter operation: The work to run while active; it should stop promptly when
  ///   its task is cancelled.
  public func whileActive(_ operation: @escaping @Sendable () async -> Void) {
    operationLock.withLock { operations.append(operation) }
    let tree = ScopeTree.shared
    tree.lock.withLock { if recordedState == .active { tree.enqueue(self) } }
    tree.drain()
  }

  // MARK: Lifecycle override points

  /// Called before the behavior becomes attached to a host.
  open func willAttach() {}

  /// Called when the behavior becomes active. Store subscriptions in `cancellables`: they
  /// are cancelled on deactivation, and this method runs again on reactivation.
  ///
  /// - Parameter cancellables: Where to keep subscriptions that live while active.
  open func willActivate(cancellables: inout Set<AnyCancellable>) {}

  /// Called before the behavior stops being active, before its cancellables are cancelled.
  open func willDeactivate() {}

  /// Called after the behavior stopped being active and its cancellables were cancelled.
  open func didDeactivate() {}

  /// Called before the behavior is detached from its host.
  open func willDetach() {}

  /// Called after the behavior was detached from its host.
  open func didDetach() {}

  // MARK: Reconciliation (runs on the draining thread)

  var nodeName: String { String(describing: type(of: self)) }

  /// Runs the callbacks that move this node's recorded state to what the structure says.
  ///
  /// One transition at a time, re-reading the structure after each if a callback changed
  /// it: a callback may move this node or its hosts, and a transition chosen from a stale
  /// reading would run against the structure (say, activating a node that its own
  /// `willAttach` moved under an inactive host).
  func reconcile() {
    let tree = ScopeTree.shared
    /// The desired and recorded states, whether the host is active, and the structure
    /// version they were read at. Lock held.
    func read() -> (ActivityState, ActivityState, Bool, UInt64) {
      (desiredState, recordedState, hostScope?.recordedState == .active, tree.structureVersion)
    }
    var (desired, recorded, hostIsActive, version) = tree.lock.withLock { read() }
    if recorded == .active && desired == .active { startPendingTasks() }
    while true {
      switch (recorded, desired) {
      case (.active, .active), (.attached, .attached), (.detached, .detached):
        return
      case (.active, _):
        deactivateSubtree()
        recorded = .attached
      case (.detached, _):
        runAttach()
        recorded = .attached
      case (.attached, .active):
        // Activation waits for the host; the host's activation queues its children.
        guard hostIsActive else { return }
        runActivate()
        recorded = .active
      case (.attached, .detached):
        runDetach()
        recorded = .detached
      }
      // The host's recorded state changes only by its own transitions, which do not run
      // during this node's, so an unchanged structure means an unchanged reading.
      tree.lock.withLock {
        if tree.structureVersion != version { (desired, recorded, hostIsActive, version) = read() }
      }
    }
  }

  /// What the structure says this node's state should be. Lock held.
  var desiredState: ActivityState {
    guard let host = hostScope else { return self is RootScope ? .active : .detached }
    return host.isRootConnected ? .active : .attached
  }

  private func runAttach() {
    willAttach()
    setState(.attached)
  }

  private func runDetach() {
    willDetach()
    setState(.detached)
    didDetach()
  }

  func runActivate() {
    // The receiver opens before willActivate, so that the override can store into it:
    // that is where users put their subscriptions first.
    (self as? Scope)?.whileActiveReceiver.activate()
    var fresh = Set<AnyCancellable>()
    willActivate(cancellables: &fresh)
    cancellables = fresh
    setState(.active)
    startPendingTasks()
    if let scope = self as? Scope {
      let tree = ScopeTree.shared
      tree.lock.withLock { for case let child? in scope.childList.slots { tree.enqueue(child) } }
    }
  }

  private func startPendingTasks() {
    let all = operationLock.withLock { operations }
    guard tasks.count < all.count else { return }
    for operation in all[tasks.count...] {
      tasks.append(Task { await operation() })
    }
  }

  /// Deactivates children first (bottom-up, siblings in reverse order), then this node.
  ///
  /// A child's callbacks may move nodes, so each child is checked under the lock just
  /// before it is deactivated (one that left, or was already deactivated, is skipped), and
  /// children moved in meanwhile are picked up by another pass. A node whose deactivation
  /// is under way is skipped too: a callback can move it below one of its own descendants,
  /// and deactivating it again from there would run its callbacks twice; it finishes when
  /// the walk returns to it.
  ///
  /// The walk keeps its own stack of the scopes under way, so that its depth does not
  /// follow the tree's: a chain a million scopes deep deactivates on a small thread stack.
  func deactivateSubtree() {
    let tree = ScopeTree.shared
    /// A node under way: its children (a snapshot, walked from the end) and the structure
    /// version the snapshot was taken at.
    struct Frame {
      let node: Behavior
      /// A copy of the host's child slots (copied on write, so taking it is O(1)), with
      /// holes where children were removed.
      var children: [Behavior?]
      var remaining: Int
      var version: UInt64
    }
    /// The frame that starts `node`'s deactivation.
    func begin(_ node: Behavior) -> Frame {
      node.isDeactivating = true
      guard let scope = node as? Scope else {
        return Frame(node: node, children: [], remaining: 0, version: 0)
      }
      let (children, version) = tree.lock.withLock {
        (scope.childList.slots, tree.structureVersion)
      }
      return Frame(node: node, children: children, remaining: children.count, version: version)
    }
    var stack = [begin(self)]
    while var frame = stack.popLast() {
      if frame.remaining > 0 {
        frame.remaining -= 1
        guard let child = frame.children[frame.remaining] else {
          stack.append(frame)
          continue
        }
        // While the structure is unchanged, the snapshot is still this scope's children,
        // so the host need not be re-read (a weak load per child).
        let due = tree.lock.withLock {
          tree.structureVersion == frame.version
            ? child.recordedState == .active && !child.isDeactivating
            : child.isDueForDeactivation(under: frame.node)
        }
        stack.append(frame)
        if due { stack.append(begin(child)) }
        continue
      }
      if let scope = frame.node as? Scope, !frame.children.isEmpty {
        // Another pass over the children that moved in while the last one ran.
        let (moved, version) = tree.lock.withLock { () -> ([Behavior?], UInt64) in
          guard tree.structureVersion != frame.version else { return ([], frame.version) }
          var due: [Behavior?] = []
          for case let child? in scope.childList.slots
          where child.isDueForDeactivation(under: scope) {
            due.append(child)
          }
          return (due, tree.structureVersion)
        }
        if !moved.isEmpty {
          stack.append(
            Frame(node: scope, children: moved, remaining: moved.count, version: version))
          continue
        }
      }
      frame.node.finishDeactivation()
    }
  }

  /// Whether this node is still hosted by `host` and waits for its deactivation. Lock held.
  private final func isDueForDeactivation(under host: Behavior) -> Bool {
    hostScope === host && recordedState == .active && !isDeactivating
  }

  /// Deactivates this node once its children are done.
  private final func finishDeactivation() {
    willDeactivate()
    let (oldCancellables, oldTasks) = (cancellables, tasks)
    cancellables = []
    tasks = []
    for cancellable in oldCancellables { cancellable.cancel() }
    for task in oldTasks { task.cancel() }
    (self as? Scope)?.whileActiveReceiver.deactivate()
    didDeactivate()
    setState(.attached)
    isDeactivating = false
  }

  private func setState(_ state: ActivityState) {
    ScopeTree.shared.lock.withLock { recordedState = state }
    stateSubject.send(state)
  }

  /// The node's type and state, and for scopes the tree below.
  public var debugDescription: String {
    var lines: [String] = []
    // Depth first, children in attach order, with a stack of its own rather than recursion.
    var pending: [(node: Behavior, depth: Int)] = [(self, 0)]
    while let (node, depth) = pending.popLast() {
      lines.append(String(repeating: "  ", count: depth) + "\(node.nodeName) (\(node.state))")
      if let scope = node as? Scope {
        pending += scope.children.reversed().map { ($0, depth + 1) }
      }
    }
    return lines.joined(separator: "\n")
  }
}
