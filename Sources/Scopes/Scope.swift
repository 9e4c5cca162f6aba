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
  var childNodes: [Behavior] = []

  /// Cancellables stored here live exactly while the scope is active.
  ///
  ///     publisher.sink { _ in }.store(in: scope.whileActiveReceiver)
  public let whileActiveReceiver = CancellableReceiver()

  /// Creates a detached scope.
  public override init() { super.init() }

  init(root: Void) { super.init(alwaysActive: ()) }

  /// The behaviors and scopes attached to this scope, in attach order.
  public var children: [Behavior] { ScopeTree.shared.lock.withLock { childNodes } }

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

  /// Whether this scope's chain of hosts ends in a root. Lock held.
  var isStructurallyActive: Bool {
    var current: Scope? = self
    while let scope = current {
      if scope is RootScope { return true }
      current = scope.hostScope
    }
    return false
  }
}

/// The top of a scope tree: always active, and it cannot be attached to anything.
public final class RootScope: Scope {
  /// Creates an active root.
  public override init() { super.init(root: ()) }
}

/// A behavior built from a closure instead of a subclass.
///
///     AnonymousBehavior { cancellables in
///         somePublisher.sink { print($0) }.store(in: &cancellables)
///     }
public final class AnonymousBehavior: Behavior {
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
