import ReactiveCore

/// A behavior that hosts other behaviors and scopes: a node of a tree.
///
///     let leaf = MyLeafScope()        // .detached
///     let middle = MyMiddleScope()
///     try leaf.attach(to: middle)     // leaf .attached, not .active
///     let root = RootScope()
///     try middle.attach(to: root)     // leaf now .active, its work started
///
/// Hosts hold their children strongly; children hold their host weakly.
open class Scope: Behavior {
  // Guarded by ScopeTree.shared.lock.
  var childList = ChildList()

  /// Cancellables stored here live exactly while the scope is active.
  ///
  ///     publisher.sink { _ in }.store(in: scope.whileActiveReceiver)
  public let whileActiveReceiver = CancellableReceiver()

  /// Creates a detached scope.
  public override init() { super.init() }

  init(root: Void) { super.init(alwaysActive: ()) }

  /// The behaviors and scopes attached to this scope, in attach order. O(n) in the
  /// number of children.
  public var children: [Behavior] { ScopeTree.shared.lock.withLock { childList.array } }

  /// Attaches `child` to this scope; the same as `child.attach(to: self)`.
  ///
  /// - Parameter child: The behavior or scope to host.
  /// - Throws: ``ScopeError`` when `child` is this scope or one of its ancestors, or a
  ///   ``RootScope``; nothing changes.
  public func host(_ child: Behavior) throws(ScopeError) {
    try child.attach(to: self)
  }

  /// Detaches `child` if this scope hosts it; otherwise does nothing.
  ///
  /// - Parameter child: The behavior or scope to evict.
  public func evict(_ child: Behavior) {
    guard child.host === self else { return }
    child.detach()
  }

  /// Releases the subtree one node at a time.
  ///
  /// Destroying the list of children would release each child from inside this deinit,
  /// each grandchild from inside that, and so on: a recursion as deep as the tree, which a
  /// long chain overflows. Instead the children are taken out here, and each child that
  /// this was the last owner of gives up its own children to the same worklist before it
  /// goes, so every node is released from this loop, in the same order as before (depth
  /// first, each host before its children, siblings in attach order).
  deinit {
    let tree = ScopeTree.shared
    var pending = tree.lock.withLock { tree.orphanChildren(of: self) }
    pending.reverse()
    while !pending.isEmpty {
      var node = pending.removeLast()
      tree.lock.lock()
      if isKnownUniquelyReferenced(&node) {
        // Nothing else holds it, and nothing can reach it: its children's weak references
        // to it are cleared with the lock held.
        if let scope = node as? Scope { pending += tree.orphanChildren(of: scope).reversed() }
      } else {
        // It outlives its dying host: like any node whose host went away, it is now hostless.
        tree.hostWentAway(node)
      }
      tree.lock.unlock()
      // Released here, outside the lock: a node this was the last owner of has no children
      // left, so its deinit goes no deeper.
      _ = consume node
    }
  }
}

/// The top of a scope tree: always active, and it cannot be attached to anything.
///
/// `Sendable`: a root has no state of its own beyond what every scope keeps under the
/// tree's lock, so it may be shared with any thread, a `@Sendable` handler included.
public final class RootScope: Scope, @unchecked Sendable {
  /// Creates an active root.
  public override init() { super.init(root: ()) }
}

/// A behavior built from a closure instead of a subclass.
///
///     AnonymousBehavior { cancellables in
///         somePublisher.sink { print($0) }.store(in: &cancellables)
///     }
///
/// `Sendable`: its closure is fixed at creation and runs only as a lifecycle callback,
/// which never runs concurrently with another; what the closure captures is read from
/// whichever thread activates the behavior.
public final class AnonymousBehavior: Behavior, @unchecked Sendable {
  private let onActivate: (inout Set<AnyCancellable>) -> Void

  /// Creates a behavior whose ``Behavior/willActivate(cancellables:)`` runs `willActivate`.
  ///
  /// - Parameter willActivate: Runs on each activation; store subscriptions in the set.
  public init(_ willActivate: @escaping (inout Set<AnyCancellable>) -> Void) {
    onActivate = willActivate
    super.init()
  }

  /// Runs the closure.
  public override func willActivate(cancellables: inout Set<AnyCancellable>) {
    onActivate(&cancellables)
  }
}
