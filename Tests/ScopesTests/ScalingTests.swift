import ModelTesting
import ReactiveCore
import Scopes
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The depth of the chains below, on a 512 KiB stack: 200,000 by default, which keeps
/// each test within a few seconds in a debug build; `RIPPLE_CHAIN_DEPTH=1000000` runs them a
/// million deep (about five times as long).
private let chainDepth =
  getenv("RIPPLE_CHAIN_DEPTH").flatMap { Int(String(cString: $0)) }.map { max($0, 2) } ?? 200_000

/// A scope that records when it deactivates, so that a test can check the order.
private final class OrderProbe: Scope {
  let name: String
  let log: Log
  init(_ name: String, log: Log) {
    self.name = name
    self.log = log
    super.init()
  }
  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    log.append("\(name).willActivate")
  }
  override func didDeactivate() { log.append("\(name).didDeactivate") }
}

/// Builds a detached chain `top` → … → `bottom` of `depth` scopes, each the only child of
/// the one above.
private func makeChain(depth: Int, log: Log) throws -> (top: Scope, bottom: Scope) {
  let top = OrderProbe("top", log: log)
  var current: Scope = top
  for level in 1..<depth {
    let next = level == depth - 1 ? OrderProbe("bottom", log: log) : Scope()
    try next.attach(to: current)
    current = next
  }
  return (top, current)
}

@Suite struct ScopeChildOrderTests {
  @Test func detachingSomeOfManyChildrenKeepsTheOthersInAttachOrder() throws {
    let log = Log()
    let root = RootScope()
    let host = Scope()
    let nodes = (0..<300).map { index in LoggingScope("n\(index)", log: log) }
    for node in nodes { try node.attach(to: host) }
    // Oldest first, newest first and from the middle, so that removal hits every position.
    var expected = nodes.map(ObjectIdentifier.init)
    for index in stride(from: 0, to: 300, by: 3) { nodes[index].detach() }
    for index in stride(from: 298, through: 150, by: -3) { host.evict(nodes[index]) }
    expected.removeAll { id in
      let index = nodes.firstIndex { ObjectIdentifier($0) == id }!
      return index % 3 == 0 || (index >= 150 && index % 3 == 298 % 3)
    }
    #expect(host.children.map(ObjectIdentifier.init) == expected)
    // Re-attached nodes go to the end, in the order they come back.
    for index in [0, 297, 3] { try host.host(nodes[index]) }
    expected += [0, 297, 3].map { ObjectIdentifier(nodes[$0]) }
    #expect(host.children.map(ObjectIdentifier.init) == expected)
    // Detach everything but a few, then add more: order still holds.
    let keep = Set([1, 2, 4, 5, 0, 3].map { ObjectIdentifier(nodes[$0]) })
    for node in nodes where !keep.contains(ObjectIdentifier(node)) { node.detach() }
    expected.removeAll { !keep.contains($0) }
    #expect(host.children.map(ObjectIdentifier.init) == expected)
    for index in [10, 11] { try nodes[index].attach(to: host) }
    expected += [10, 11].map { ObjectIdentifier(nodes[$0]) }
    #expect(host.children.map(ObjectIdentifier.init) == expected)

    // Activation follows that order, deactivation the reverse.
    let names = expected.map { id in nodes.first { ObjectIdentifier($0) == id }!.name }
    log.clear()
    try host.attach(to: root)
    #expect(log.lines == names.map { "\($0).willActivate" })
    log.clear()
    host.detach()
    #expect(
      log.lines
        == names.reversed().flatMap { ["\($0).willDeactivate", "\($0).didDeactivate"] })
  }

  @Test func detachCostDoesNotGrowWithTheNumberOfSiblings() throws {
    /// Seconds per detach of each of `count` children, oldest first (the best of three).
    func perDetach(_ count: Int) throws -> Double {
      var best = Double.infinity
      for _ in 0..<3 {
        let host = Scope()
        let nodes = (0..<count).map { _ in Behavior() }
        for node in nodes { try node.attach(to: host) }
        let elapsed = ContinuousClock().measure {
          for node in nodes { node.detach() }
        }
        #expect(host.children.isEmpty)
        best = min(best, elapsed / .seconds(1) / Double(count))
      }
      return best
    }
    let small = try perDetach(1_000)
    let large = try perDetach(50_000)
    // Linear removal makes this about 50; constant time about 1.
    #expect(
      large / small < 8, "per detach: \(small * 1e9) ns at 1,000, \(large * 1e9) ns at 50,000")
  }
}

@Suite struct DeepScopeChainTests {
  @Test func aDeepChainAttachesDetachesAndIsReleasedOnASmallStack() {
    onThread {
      let log = Log()
      let root = RootScope()
      weak var weakBottom: Scope?
      do {
        let (top, bottom) = try! makeChain(depth: chainDepth, log: log)
        weakBottom = bottom
        try! top.attach(to: root)
        #expect(bottom.state == .active)
        #expect(log.lines == ["top.willActivate", "bottom.willActivate"])
        log.clear()
        top.detach()
        #expect(bottom.state == .attached)
        #expect(log.lines == ["bottom.didDeactivate", "top.didDeactivate"])
        try! top.attach(to: root)
        #expect(bottom.state == .active)
        top.detach()
        #expect(top.state == .detached)
      }
      #expect(weakBottom == nil)
    }
  }

  @Test func aRootHoldingADeepChainIsReleasedOnASmallStack() {
    onThread {
      let log = Log()
      weak var weakBottom: Scope?
      weak var weakRoot: RootScope?
      do {
        let root = RootScope()
        weakRoot = root
        let (top, bottom) = try! makeChain(depth: chainDepth, log: log)
        weakBottom = bottom
        try! top.attach(to: root)
        #expect(bottom.state == .active)
      }
      #expect(weakRoot == nil)
      #expect(weakBottom == nil)
    }
  }
}
