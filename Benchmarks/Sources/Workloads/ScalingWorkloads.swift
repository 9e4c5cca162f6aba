import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 32's Scopes and Lineage rows: the cost of one operation at a size, so that the
/// same operation measured at three sizes shows whether it grows with the size of the
/// structure (it should not).
///
/// Each function builds its structure (not timed), times the operation over the whole
/// structure, and returns nanoseconds per unit (per detach, per node, per level). The time
/// is the measuring thread's CPU time, so that other work on a shared machine, which
/// takes the processor away for longer stretches the longer a run is, does not pass for
/// a cost that grows with size.
public enum ScalingWorkloads {
  /// A property that a chain inherits.
  public final class Theme: Ancestor {
    @Inherited var size: Int = 12
  }

  /// Nanoseconds of this thread's CPU time spent in `body`.
  private static func time(_ body: () -> Void) -> Double {
    func now() -> Double {
      var clock = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock)
      return Double(clock.tv_sec) * 1e9 + Double(clock.tv_nsec)
    }
    let start = now()
    body()
    return now() - start
  }

  /// Per detach: detaching each of `n` active behaviors from one scope, oldest first.
  public static func scopeDetachOneOfN(_ n: Int) -> Double {
    let root = RootScope()
    let host = Scope()
    try? host.attach(to: root)
    let nodes = (0..<n).map { _ in Behavior() }
    for node in nodes { try? node.attach(to: host) }
    let elapsed = time {
      for node in nodes { node.detach() }
    }
    blackHole &+= host.children.count
    return elapsed / Double(n)
  }

  /// Per node: deactivating (detaching) a scope whose `n` behaviors each hold a sink on
  /// one shared subject; with `sharedSubject: false`, each on a subject of its own, which
  /// leaves out the subject's cost of removing one of many subscribers.
  public static func scopeDeactivateWithSinks(_ n: Int, sharedSubject: Bool) -> Double {
    let root = RootScope()
    let scope = Scope()
    let shared = PassthroughSubject<Int, Never>()
    for _ in 0..<n {
      let subject = sharedSubject ? shared : PassthroughSubject<Int, Never>()
      try? AnonymousBehavior { cancellables in
        subject.sink { blackHole &+= $0 }.store(in: &cancellables)
      }.attach(to: scope)
    }
    try? scope.attach(to: root)
    let elapsed = time { scope.detach() }
    return elapsed / Double(n)
  }

  /// Per level: attaching, detaching and releasing a chain of `depth` scopes, each the
  /// only child of the one above (attach activates every level, detach deactivates every
  /// level bottom-up, release frees every level).
  public static func scopeChain(_ depth: Int) -> (attach: Double, detach: Double, release: Double) {
    let root = RootScope()
    var top: Scope? = Scope()
    var bottom = top!
    for _ in 1..<depth {
      let next = Scope()
      try? next.attach(to: bottom)
      bottom = next
    }
    weak let weakBottom = bottom
    bottom = top!
    let attach = time { try? top!.attach(to: root) }
    blackHole &+= weakBottom?.state == .active ? 1 : 0
    let detach = time { top!.detach() }
    blackHole &+= weakBottom?.state == .attached ? 1 : 0
    bottom = root
    let release = time { top = nil }
    blackHole &+= weakBottom == nil ? 1 : 0
    let levels = Double(depth)
    return (attach / levels, detach / levels, release / levels)
  }

  /// Per level: on a chain of `depth` instances, a cold read of an inherited value at the
  /// bottom (it resolves through every level), a write at the root (it invalidates every
  /// level, and reaches a subscriber at the bottom), and releasing the chain.
  public static func lineageChain(_ depth: Int) -> (
    coldRead: Double, rootWrite: Double, release: Double
  ) {
    let root = Theme()
    root.size = 14
    var leaf: Theme? = root
    for _ in 1..<depth { leaf = leaf!.descendant() }
    let coldRead = time { blackHole &+= leaf!.size }
    let cancellable = leaf!.publisher(for: \Theme.size).sink { blackHole &+= $0 }
    let rootWrite = time { root.size = 15 }
    cancellable.cancel()
    weak let weakRoot = root
    _ = consume root
    let release = time { leaf = nil }
    blackHole &+= weakRoot == nil ? 1 : 0
    let levels = Double(depth)
    return (coldRead / levels, rootWrite / levels, release / levels)
  }
}
