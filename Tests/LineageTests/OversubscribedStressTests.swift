// Eight threads at once on a two-core machine against shared lineages. Correctness
// only: the structure, the resolved values and the notifications after the storm are
// exactly what the operations imply; no timing.

import Lineage
import ModelTesting
import ReactiveCore
import Synchronization
import Testing

/// An instance with two inheritable properties, for these tests alone.
private final class Tile: Ancestor {
  @Inherited var columns: Int = -1
  @Inherited var label: String?
}

/// Carries instances, which are not `Sendable`, into the threads; every access to them
/// goes through the lineage's own lock.
private struct Shared<Value>: @unchecked Sendable {
  let value: Value
}

/// Proves, with eight threads released together (more threads than cores), that one
/// lock really keeps every lineage consistent: concurrent reparenting leaves a forest
/// whose values and later changes reach exactly the instances under each root; writes,
/// stops and resumes on different levels of one chain leave every level reading what a
/// model of the final states says; and an effective-value publisher, after concurrent
/// writers, is left with the value the instance really has.
@Suite struct OversubscribedStressTests {
  static let threads = 8

  /// Eight threads move 24 instances under 4 roots and under each other (cycles are
  /// refused) while reading them: no read is ever a value no root has, no cycle forms,
  /// every instance reads its own root's value, and a change at each root then reaches
  /// exactly the instances under it.
  @Test func reparentingFromEightThreadsKeepsAForestWithExactValues() {
    let roots = (0..<4).map { index in
      let root = Tile()
      root.columns = 100 + index
      return root
    }
    let nodes = (0..<24).map { Tile(ancestor: roots[$0 % 4]) }
    let shared = Shared(value: (roots, nodes))
    let phantoms = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { thread in
      let (roots, nodes) = shared.value
      var random = SeededGenerator(state: UInt64(thread) &* 0x5851_F42D_4C95_7F2D)
      for step in 0..<400 {
        if step % 16 == 0 { yieldToOtherThreads() }
        let node = nodes.randomElement(using: &random)!
        let target = Int.random(in: 0..<(roots.count + nodes.count), using: &random)
        do {
          try node.reparent(to: target < roots.count ? roots[target] : nodes[target - roots.count])
        } catch {
          refused.add(1, ordering: .relaxed)
        }
        let read = nodes.randomElement(using: &random)!.columns
        if !(100..<104).contains(read) { phantoms.add(1, ordering: .relaxed) }
      }
    }
    #expect(phantoms.load(ordering: .relaxed) == 0, "a read saw a value no root has")
    #expect(refused.load(ordering: .relaxed) > 0, "no cycle was ever proposed")
    let rootOf = nodes.map { node -> Int? in
      var current: Ancestor = node
      for _ in 0...nodes.count {
        guard let up = current.ancestor else { break }
        current = up
      }
      return roots.firstIndex { $0 === current }
    }
    #expect(rootOf.allSatisfy { $0 != nil }, "an instance is in a cycle or lost its root")
    for (node, root) in zip(nodes, rootOf) where root != nil {
      #expect(node.columns == 100 + root!)
    }
    for (index, root) in roots.enumerated() { root.columns = 200 + index }
    for (node, root) in zip(nodes, rootOf) where root != nil {
      #expect(node.columns == 200 + root!, "a root's change missed an instance under it")
    }
  }

  /// What one thread leaves on its level of the chain: an own value or none, and whether
  /// inheritance is stopped.
  struct LevelState: Sendable, Equatable {
    var own: Int?
    var stopped = false
  }

  /// A chain of nine instances; thread t owns level t + 1 and sets, stops and resumes its
  /// columns and sets its label at random while reading other levels (which fills their
  /// caches). At the end every level reads exactly what the final states say: its own
  /// value, else the default if stopped, else its ancestor's; and its own last label, else
  /// the nearest one above.
  @Test func eightThreadsChangingOneLevelEachOfOneChain() {
    let root = Tile()
    root.columns = 7
    var chain = [root]
    for _ in 0..<Self.threads { chain.append(chain.last!.descendant()) }
    let shared = Shared(value: chain)
    let finals = LockedBox(Array(repeating: LevelState(), count: Self.threads + 1))
    let labels = LockedBox(Array(repeating: String?.none, count: Self.threads + 1))
    onThreadsAtOnce(Self.threads) { thread in
      let chain = shared.value
      let mine = chain[thread + 1]
      var state = LevelState()
      var label: String?
      var random = SeededGenerator(state: UInt64(thread + 1) &* 0x2545_F491_4F6C_DD1D)
      for step in 0..<600 {
        if step % 16 == 0 { yieldToOtherThreads() }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          mine.columns = thread * 1_000 + step
          state.own = thread * 1_000 + step
        case 1:
          mine.stopInheriting(\Tile.columns)
          state.stopped = true
        case 2:
          mine.resumeInheriting(\Tile.columns)
          state = LevelState()
        default:
          label = "\(thread).\(step)"
          mine.label = label
        }
        _ = chain.randomElement(using: &random)!.columns
      }
      finals.withLock { $0[thread + 1] = state }
      labels.withLock { $0[thread + 1] = label }
    }
    var expected: [Int] = []
    for (level, state) in finals.withLock({ $0 }).enumerated() {
      if level == 0 {
        expected.append(7)
      } else if let own = state.own {
        expected.append(own)
      } else {
        expected.append(state.stopped ? -1 : expected[level - 1])
      }
    }
    #expect(chain.map(\.columns) == expected)
    // Labels were only ever set, never cleared: each level reads its own last one, or
    // the nearest one above.
    var expectedLabels: [String?] = []
    for label in labels.withLock({ $0 }) {
      expectedLabels.append(label ?? expectedLabels.last ?? nil)
    }
    #expect(chain.map(\.label) == expectedLabels)
  }

  /// Eight threads write the root's value (from a few values, so that equal values
  /// recur) while three instances below it are observed, round after round. After each
  /// round every subscriber's last value is the value its instance has, and a new
  /// subscriber starts from that value; no subscriber ever got the same value twice in a
  /// row.
  @Test func effectiveValuePublishersEndAtTheRealValueAfterConcurrentWriters() {
    let root = Tile()
    root.columns = 0
    let observed = (0..<3).map { depth in
      var node = root.descendant()
      for _ in 0..<depth { node = node.descendant() }
      return node
    }
    let received = (0..<3).map { _ in LockedBox<(last: Int?, repeats: Int)>((nil, 0)) }
    let cancellables = zip(observed, received).map { node, box in
      node.publisher(for: \.columns).sink { value in
        box.withLock { state in
          if state.last == value { state.repeats += 1 }
          state.last = value
        }
      }
    }
    let shared = Shared(value: root)
    var staleLast = 0
    var staleFirst = 0
    for _ in 0..<40 {
      onThreadsAtOnce(Self.threads) { thread in
        for step in 0..<50 {
          if step % 16 == 0 { yieldToOtherThreads() }
          shared.value.columns = (thread + step) % 3
        }
      }
      let final = root.columns
      for (node, box) in zip(observed, received) {
        #expect(node.columns == final)
        if box.withLock({ $0.last }) != final { staleLast += 1 }
        let first = LockedBox<Int?>(nil)
        node.publisher(for: \.columns).first().sink { value in first.withLock { $0 = value } }
          .cancel()
        if first.withLock({ $0 }) != final { staleFirst += 1 }
      }
    }
    #expect(staleLast == 0, "a subscriber's last value is not the instance's value")
    #expect(staleFirst == 0, "a new subscriber started from a value the instance no longer has")
    let repeats = received.map { $0.withLock { $0.repeats } }
    #expect(repeats == [0, 0, 0], "the same value was published twice in a row")
    for cancellable in cancellables { cancellable.cancel() }
  }
}
