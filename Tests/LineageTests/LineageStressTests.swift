import Dispatch
import Lineage
import ReactiveCore
import Synchronization
import Testing

private struct Shared: @unchecked Sendable {
  let root: SectionAttributes
  let leaves: [SectionAttributes]
}

@Suite struct LineageStressTests {
  @Test func concurrentReadsWritesAndSubscriptionsAreRaceFree() {
    let root = SectionAttributes()
    var leaves: [SectionAttributes] = []
    for _ in 0..<8 {
      var node = root
      for _ in 0..<8 { node = node.descendant() }
      leaves.append(node)
    }
    let shared = Shared(root: root, leaves: leaves)
    let notifications = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      let leaf = shared.leaves[thread]
      let cancellable = leaf.publisher(for: \SectionAttributes.columns).sink { _ in
        notifications.add(1, ordering: .relaxed)
      }
      for step in 0..<2_000 {
        switch step % 4 {
        case 0: shared.root.columns = step
        case 1: _ = leaf.columns
        case 2: leaf.insets = Insets(top: Double(step), left: 0)
        default: leaf.resumeInheriting(\SectionAttributes.insets)
        }
      }
      cancellable.cancel()
    }
    shared.root.columns = -1
    for leaf in leaves { #expect(leaf.columns == -1) }
    #expect(notifications.load(ordering: .relaxed) > 0)
  }
}
