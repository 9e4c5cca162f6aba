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
///   The class is not marked `Sendable`, so that your subclasses need not be; share a
///   node across threads through your own `Sendable` wrapper.
open class Behavior: CustomDebugStringConvertible {
  // Guarded by ScopeTree.shared.lock.
  weak var hostScope: Scope?
  var recordedState: ActivityState
  var isQueued = false

  // Touched only by the draining thread (callbacks never run concurrently).
  private var cancellables = Set<AnyCancellable>()
  private var tasks: [Task<Void, Never>] = []

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
  public func attach(to host: Scope) throws(ScopeError) {
    let tree = ScopeTree.shared
    try tree.lock.withLock { () throws(ScopeError) -> Void in
      if self is RootScope { throw ScopeError.rootCannotBeAttached(root: nodeName) }
      var ancestor: Scope? = host
      while let current = ancestor {
        if current === self { throw ScopeError.cycle(node: nodeName, host: host.nodeName) }
        ancestor = current.hostScope
      }
      guard hostScope !== host else { return }
      hostScope?.childNodes.removeAll { $0 === self }
      host.childNodes.append(self)
      hostScope = host
      tree.enqueue(self)
    }
    tree.drain()
  }

  /// Detaches the behavior from its host; does nothing if it has none.
  public func detach() {
    let tree = ScopeTree.shared
    tree.lock.withLock {
      guard let current = hostScope else { return }
      current.childNodes.removeAll { $0 === self }
      hostScope = nil
      tree.enqueue(self)
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
  func reconcile() {
    let tree = ScopeTree.shared
    let (desired, recorded, hostIsActive) = tree.lock.withLock {
      (desiredState, recordedState, hostScope.map { $0.recordedState == .active } ?? false)
    }
    guard desired != recorded else {
      if recorded == .active { startPendingTasks() }
      return
    }
    switch (recorded, desired) {
    case (.active, _):
      deactivateSubtree(endingDetached: desired == .detached)
    case (.detached, .attached):
      runAttach()
    case (.detached, .active):
      runAttach()
      // Activation waits for the host; the host's activation queues its children.
      if hostIsActive { runActivate() }
    case (.attached, .active):
      if hostIsActive { runActivate() }
    case (.attached, .detached):
      runDetach()
    default:
      break
    }
  }

  /// What the structure says this node's state should be. Lock held.
  var desiredState: ActivityState {
    guard let host = hostScope else { return self is RootScope ? .active : .detached }
    return host.isStructurallyActive ? .active : .attached
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
    var fresh = Set<AnyCancellable>()
    willActivate(cancellables: &fresh)
    cancellables = fresh
    (self as? Scope)?.whileActiveReceiver.activate()
    setState(.active)
    startPendingTasks()
    if let scope = self as? Scope {
      let tree = ScopeTree.shared
      tree.lock.withLock { for child in scope.childNodes { tree.enqueue(child) } }
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
  func deactivateSubtree(endingDetached: Bool) {
    if let scope = self as? Scope {
      let children = ScopeTree.shared.lock.withLock { scope.childNodes }
      for child in children.reversed() where child.state == .active {
        child.deactivateSubtree(endingDetached: false)
      }
    }
    willDeactivate()
    let (oldCancellables, oldTasks) = (cancellables, tasks)
    cancellables = []
    tasks = []
    for cancellable in oldCancellables { cancellable.cancel() }
    for task in oldTasks { task.cancel() }
    (self as? Scope)?.whileActiveReceiver.deactivate()
    didDeactivate()
    setState(.attached)
    if endingDetached { runDetach() }
  }

  private func setState(_ state: ActivityState) {
    ScopeTree.shared.lock.withLock { recordedState = state }
    stateSubject.send(state)
  }

  /// The node's type and state, and for scopes the tree below.
  public var debugDescription: String {
    var lines: [String] = []
    func describe(_ node: Behavior, depth: Int) {
      lines.append(String(repeating: "  ", count: depth) + "\(node.nodeName) (\(node.state))")
      if let scope = node as? Scope {
        for child in scope.children { describe(child, depth: depth + 1) }
      }
    }
    describe(self, depth: 0)
    return lines.joined(separator: "\n")
  }
}
