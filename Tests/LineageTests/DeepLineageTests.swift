import Lineage
import ModelTesting
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The depth of the chains below, on a 512 KiB stack: 300,000 by default, which keeps
/// each test within a few seconds in a debug build; `RIPPLE_CHAIN_DEPTH=1000000` runs them a
/// million deep (about three times as long).
private let chainDepth =
  getenv("RIPPLE_CHAIN_DEPTH").flatMap { Int(String(cString: $0)) }.map { max($0, 2) } ?? 300_000

@Suite struct DeepLineageTests {
  @Test func aDeepChainReadsWritesAndIsReleasedOnASmallStack() {
    onThread {
      weak var weakRoot: Person?
      weak var weakMiddle: Person?
      do {
        let root = Person()
        weakRoot = root
        var leaf = root
        for level in 1..<chainDepth {
          leaf = leaf.descendant()
          if level == chainDepth / 2 { weakMiddle = leaf }
        }
        // A cold read resolves through every level.
        #expect(leaf.lastName == nil)
        root.lastName = "Weasley"
        #expect(leaf.lastName == "Weasley")
        #expect(weakMiddle?.lastName == "Weasley")
        // A write at the root reaches an observer at the bottom.
        var seen: [String?] = []
        let cancellable = leaf.publisher(for: \Person.lastName).sink { seen.append($0) }
        root.lastName = "Prewett"
        #expect(seen == ["Weasley", "Prewett"])
        #expect(leaf.lastName == "Prewett")
        // Stopping in the middle shields everything below.
        weakMiddle?.stopInheriting(\Person.lastName)
        #expect(seen == ["Weasley", "Prewett", nil])
        root.lastName = "Lupin"
        #expect(seen == ["Weasley", "Prewett", nil])
        cancellable.cancel()
      }
      // Dropping the leaf releases the whole chain, one level after another.
      #expect(weakMiddle == nil)
      #expect(weakRoot == nil)
    }
  }

  @Test func aColdReadOfADeepChainResolvesAndCachesEachLevel() {
    onThread {
      let root = SectionAttributes()
      root.columns = 3
      var leaf = root
      for _ in 1..<chainDepth { leaf = leaf.descendant() }
      #expect(leaf.columns == 3)
      #expect(leaf.insets == .zero)
    }
  }
}

@Suite struct ManyDescendantsTests {
  @Test func releasingAndReparentingSomeOfManyDescendantsKeepsTheRestNotified() throws {
    let root = Person()
    root.lastName = "A"
    var children = (0..<3_000).map { _ in root.descendant() }
    var seen: [Int: [String?]] = [:]
    var cancellables: [AnyCancellable] = []
    for (index, child) in children.enumerated() {
      child.publisher(for: \Person.lastName).sink { seen[index, default: []].append($0) }
        .store(in: &cancellables)
    }
    // Drop the subscriptions of every other descendant, then the descendants themselves,
    // oldest first, then move a few more away.
    weak let dropped = children[0]
    for index in stride(from: 0, to: 3_000, by: 2) { cancellables[index].cancel() }
    for index in stride(from: 2_998, through: 0, by: -2) { children.remove(at: index) }
    #expect(dropped == nil)
    let other = Person()
    other.lastName = "B"
    try children[0].reparent(to: other)
    try children[1].reparent(to: nil)
    seen = [:]
    root.lastName = "C"
    // Descendants 3, 5, … (children[2...]) hear it; the moved and dropped ones do not.
    #expect(seen.keys.sorted() == Array(stride(from: 5, to: 3_000, by: 2)))
    #expect(seen.values.allSatisfy { $0 == ["C"] })
    #expect(children[0].lastName == "B")
    #expect(children[1].lastName == nil)
  }

  @Test func releasingEachOfManyDescendantsCostsTheSame() {
    /// Seconds per release of each of `count` descendants, oldest first (best of three).
    func perRelease(_ count: Int) -> Double {
      var best = Double.infinity
      for _ in 0..<3 {
        let root = Person()
        var children = (0..<count).map { _ in root.descendant() }
        let elapsed = ContinuousClock().measure {
          children.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = root }
          }
        }
        _ = children
        best = min(best, elapsed / .seconds(1) / Double(count))
      }
      return best
    }
    let small = perRelease(1_000)
    let large = perRelease(50_000)
    #expect(
      large / small < 8, "per release: \(small * 1e9) ns at 1,000, \(large * 1e9) ns at 50,000")
  }
}
