/// A `Sendable` handle on any behavior or scope, for handing a node to a `@Sendable`
/// closure — a server's request handler, a `Task`, a `DispatchQueue` block — without a box
/// of your own.
///
///     final class Connection: Behavior { … }          // not Sendable, and need not be
///
///     let connection = SendableNode(Connection())
///     router.get("/events") { request, context in
///         try connection.node.attach(to: root.node)  // from any thread
///         …
///     }
///
/// ``Behavior`` and ``Scope`` are open classes that are deliberately not `Sendable`, so
/// that your subclasses need not be. Everything they define themselves is thread-safe —
/// attaching, detaching, hosting, evicting, ``Behavior/state``,
/// ``Behavior/statePublisher``, ``Behavior/whileActive(_:)`` and
/// ``Scope/whileActiveReceiver`` — so a handle may carry any node to any thread. What your
/// subclass adds (its own stored properties) is yours to keep safe: give it a lock, or
/// touch it only from the node's lifecycle callbacks, which never run concurrently.
/// ``RootScope`` and ``AnonymousBehavior`` are `Sendable` themselves and need no handle.
public struct SendableNode<Node: Behavior>: @unchecked Sendable {
  /// The node.
  public let node: Node

  /// Wraps `node`, to hand it to another thread.
  ///
  /// - Parameter node: Any behavior or scope.
  public init(_ node: Node) { self.node = node }
}

extension SendableNode: Equatable {
  /// Whether both handles hold the same node.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.node === rhs.node }
}

extension SendableNode: Hashable {
  /// Hashes the node's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(node)) }
}
