/// Where a ``Behavior`` stands in its lifecycle.
///
/// A node is `.active` exactly when it is attached to an active host; a ``RootScope`` is
/// always active.
public enum ActivityState: String, Sendable, CustomStringConvertible {
  /// Not attached to any host.
  case detached
  /// Attached to a host that is not active.
  case attached
  /// Attached to an active host, and doing its work.
  case active

  /// The case name.
  public var description: String { rawValue }
}

/// Misuse of a scope tree, reported before anything changes.
public enum ScopeError: Error, Equatable, CustomStringConvertible {
  /// The node would become its own ancestor.
  case cycle(node: String, host: String)
  /// A ``RootScope`` is the top of its tree and cannot be attached.
  case rootCannotBeAttached(root: String)

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .cycle(let node, let host):
      "Attaching \(node) to \(host) would make \(node) its own ancestor; nothing changed. "
        + "Attach it to a scope outside its own subtree."
    case .rootCannotBeAttached(let root):
      "\(root) is a RootScope, which is always active and cannot be attached; nothing changed. "
        + "Use a Scope for an inner node."
    }
  }
}
