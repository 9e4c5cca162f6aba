import Dispatch
import ReactiveCore
import Scopes
import Testing

/// A subclass that is not `Sendable`, as an app's would be.
private final class Connection: Behavior {
  var activations = 0
  override func willActivate(cancellables: inout Set<AnyCancellable>) { activations += 1 }
}

/// Checks at compile time that a value may cross into a `@Sendable` closure.
private func requireSendable<T: Sendable>(_ value: T) -> T { value }

@Suite struct SendableNodeTests {
  /// Root scopes and anonymous behaviors are `Sendable` themselves: a `@Sendable`
  /// closure captures them as they are.
  @Test func rootScopesAndAnonymousBehaviorsAreSendable() async {
    let root = requireSendable(RootScope())
    let behavior = requireSendable(AnonymousBehavior { _ in })
    await Task.detached { try? behavior.attach(to: root) }.value
    #expect(behavior.state == .active)
  }

  /// Any node crosses to other threads in a ``SendableNode``, and works there: attached
  /// and detached from many threads, it ends where the last operation left it, and its
  /// callbacks never overlapped (the subclass's plain counter counts every activation).
  @Test func anyNodeCrossesThreadsInAHandle() async {
    let root = RootScope()
    let connection = SendableNode(Connection())
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<64 {
        group.addTask {
          if index % 2 == 0 {
            try? connection.node.attach(to: root)
          } else {
            connection.node.detach()
          }
        }
      }
    }
    try? connection.node.attach(to: root)
    #expect(connection.node.state == .active)
    #expect(connection.node.activations >= 1)
    #expect(SendableNode(connection.node) == connection)
  }

  /// A handle keeps its node alive, and nothing more: dropping both releases it.
  @Test func aHandleHoldsItsNodeStronglyUntilDropped() {
    weak var released: Connection?
    do {
      let handle = SendableNode(Connection())
      released = handle.node
      #expect(released != nil)
    }
    #expect(released == nil)
  }
}
