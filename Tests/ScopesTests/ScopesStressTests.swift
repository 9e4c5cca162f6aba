import Dispatch
import ReactiveCore
import Scopes
import Synchronization
import Testing

/// A behavior that counts its callbacks, for balance checks under concurrency.
private final class Counter: Behavior {
  let activations = Atomic<Int>(0)
  let deactivations = Atomic<Int>(0)
  let attaches = Atomic<Int>(0)
  let detaches = Atomic<Int>(0)
  override func willAttach() { attaches.add(1, ordering: .relaxed) }
  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    activations.add(1, ordering: .relaxed)
  }
  override func didDeactivate() { deactivations.add(1, ordering: .relaxed) }
  override func didDetach() { detaches.add(1, ordering: .relaxed) }
}

@Suite struct ScopesStressTests {
  @Test func concurrentAttachAndDetachStayConsistentAndBalanced() {
    let root = RootScope()
    let hosts = [Scope(), Scope(), Scope()]
    for host in hosts.prefix(2) { try? host.attach(to: root) }
    let nodes = (0..<16).map { _ in Counter() }
    let shared = Unchecked(value: (hosts, nodes))
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      let (hosts, nodes) = shared.value
      for step in 0..<2_000 {
        let node = nodes[(thread * 7 + step) % nodes.count]
        switch step % 4 {
        case 0, 1: try? node.attach(to: hosts[(thread + step) % hosts.count])
        case 2: node.detach()
        default: _ = node.state
        }
      }
    }
    for node in nodes {
      let expected: ActivityState =
        node.host == nil ? .detached : (node.host!.state == .active ? .active : .attached)
      #expect(node.state == expected)
      let active = node.state == .active ? 1 : 0
      #expect(
        node.activations.load(ordering: .relaxed) - node.deactivations.load(ordering: .relaxed)
          == active)
      let attached = node.state == .detached ? 0 : 1
      #expect(
        node.attaches.load(ordering: .relaxed) - node.detaches.load(ordering: .relaxed) == attached)
    }
  }
}
