import ReactiveCore
import Scopes
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A seeded generator (SplitMix64), so that a failing run can be replayed from its seed.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One random step; host `-1` is the root scope.
private enum ScopeStep: CustomStringConvertible {
  case attach(node: Int, host: Int)
  case host(host: Int, node: Int)
  case detach(node: Int)
  case evict(host: Int, node: Int)

  var description: String {
    switch self {
    case .attach(let node, let host): "attach(\(node), to: \(host))"
    case .host(let host, let node): "host(\(host), \(node))"
    case .detach(let node): "detach(\(node))"
    case .evict(let host, let node): "evict(\(host), \(node))"
    }
  }
}

/// Random attach / host / detach / evict on a forest of scopes under one root, checked
/// against a plain parent map after every step: every node's `state`, rejected cycles
/// that change nothing, balanced callbacks, host-first activation and children-first
/// deactivation; and no node is retained once detached and dropped.
@Suite struct ScopesModelTests {
  static let nodes = 8

  /// The model's state of `node` under `parents` (`-1` is the root).
  private static func state(_ node: Int, _ parents: [Int?]) -> ActivityState {
    guard var current = parents[node] else { return .detached }
    while current != -1 {
      guard let next = parents[current] else { return .attached }
      current = next
    }
    return .active
  }

  private static func count(_ lines: [String], _ line: String) -> Int {
    lines.filter { $0 == line }.count
  }

  /// Runs `steps`; returns a description of the first mismatch.
  private static func run(steps: [ScopeStep]) -> String? {
    let log = Log()
    let root = RootScope()
    var scopes = (0..<nodes).map { LoggingScope("\($0)", log: log) }
    var parents = [Int?](repeating: nil, count: nodes)
    func scope(_ index: Int) -> Scope { index == -1 ? root : scopes[index] }
    for (number, step) in steps.enumerated() {
      let before = parents
      log.clear()
      let (node, host): (Int, Int?)
      switch step {
      case .attach(let n, let h), .host(let h, let n): (node, host) = (n, h)
      case .detach(let n): (node, host) = (n, nil)
      case .evict(let h, let n): (node, host) = (n, parents[n] == h ? nil : parents[n])
      }
      var isCycle = false
      if let host, host != -1 {
        var current: Int? = host
        while let here = current, here != -1 {
          if here == node { isCycle = true }
          current = parents[here]
        }
      }
      do {
        switch step {
        case .attach(let n, let h): try scopes[n].attach(to: scope(h))
        case .host(let h, let n): try scope(h).host(scopes[n])
        case .detach(let n): scopes[n].detach()
        case .evict(let h, let n): scope(h).evict(scopes[n])
        }
        if isCycle { return "step \(number) \(step): a cycle was accepted" }
        parents[node] = host
      } catch {
        if !isCycle { return "step \(number) \(step): rejected without a cycle: \(error)" }
        if !log.lines.isEmpty { return "step \(number) \(step): a rejected step ran \(log.lines)" }
      }
      let lines = log.lines
      for index in 0..<nodes {
        let expected = state(index, parents)
        if scopes[index].state != expected {
          return
            "step \(number) \(step): node \(index) is \(scopes[index].state), the model \(expected)"
        }
        let was = state(index, before)
        let activations = count(lines, "\(index).willActivate")
        let deactivations = count(lines, "\(index).didDeactivate")
        let net = (expected == .active ? 1 : 0) - (was == .active ? 1 : 0)
        if activations - deactivations != net
          || count(lines, "\(index).willDeactivate") != deactivations
        {
          return "step \(number) \(step): node \(index) callbacks unbalanced: \(lines)"
        }
        // Host-first activation; children-first deactivation.
        if let at = lines.firstIndex(of: "\(index).willActivate"), let host = parents[index],
          host != -1, let hostAt = lines.firstIndex(of: "\(host).willActivate"), hostAt > at
        {
          return "step \(number) \(step): \(index) activated before its host: \(lines)"
        }
        if let at = lines.firstIndex(of: "\(index).didDeactivate"), let host = before[index],
          host != -1, let hostAt = lines.firstIndex(of: "\(host).didDeactivate"), hostAt < at
        {
          return "step \(number) \(step): \(index) deactivated after its host: \(lines)"
        }
      }
    }
    // Detached and dropped, nothing is retained.
    weak let weakScope = scopes.first
    for scope in scopes { scope.detach() }
    scopes.removeAll()
    if weakScope != nil { return "a detached, dropped scope is still alive" }
    return nil
  }

  /// Removes steps one at a time while the run still fails: a minimal failing sequence.
  private static func shrink(_ steps: [ScopeStep]) -> [ScopeStep] {
    var steps = steps
    var index = 0
    while index < steps.count {
      var candidate = steps
      candidate.remove(at: index)
      if run(steps: candidate) != nil { steps = candidate } else { index += 1 }
    }
    return steps
  }

  @Test func randomHistoriesMatchTheModel() {
    let seed = UInt64(
      getenv("RIPPLE_SEED").flatMap { UInt64(String(cString: $0)) }
        ?? UInt64.random(in: 0...UInt64.max))
    let total = getenv("RIPPLE_FUZZ_STEPS").flatMap { Int(String(cString: $0)) } ?? 10_000
    var random = SeededGenerator(state: seed)
    var done = 0
    while done < total {
      let steps: [ScopeStep] = (0..<100).map { _ in
        let node = Int.random(in: 0..<Self.nodes, using: &random)
        let host = Int.random(in: -1..<Self.nodes, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: return .attach(node: node, host: host)
        case 2, 3: return .host(host: host, node: node)
        case 4: return .detach(node: node)
        default: return .evict(host: host, node: node)
        }
      }
      done += steps.count
      if let failure = Self.run(steps: steps) {
        let message =
          "seed \(seed) (rerun with RIPPLE_SEED=\(seed)): \(failure); minimal steps "
          + "\(Self.shrink(steps))"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    print("ScopesModelTests: \(done) steps, seed \(seed)")
  }
}
