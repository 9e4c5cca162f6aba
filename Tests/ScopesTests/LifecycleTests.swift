import ReactiveCore
import Scopes
import Testing

@Suite struct LifecycleTests {
  @Test func seedLeafMiddleRootExample() throws {
    let log = Log()
    let leaf = LoggingScope("leaf", log: log)
    #expect(leaf.state == .detached)
    let middle = LoggingScope("middle", log: log)
    try leaf.attach(to: middle)
    #expect(leaf.state == .attached)
    let root = RootScope()
    #expect(root.state == .active)
    try middle.attach(to: root)
    #expect(middle.state == .active)
    #expect(leaf.state == .active)
    #expect(
      log.lines == [
        "leaf.willAttach", "middle.willAttach", "middle.willActivate", "leaf.willActivate",
      ])
  }

  @Test func detachingAnActiveNodeRunsTheFullSequence() throws {
    let log = Log()
    let root = RootScope()
    let node = LoggingScope("node", log: log)
    try node.attach(to: root)
    log.clear()
    node.detach()
    #expect(
      log.lines == [
        "node.willDeactivate", "node.didDeactivate", "node.willDetach", "node.didDetach",
      ])
    #expect(node.state == .detached)
  }

  @Test func activationTopDownAndDeactivationBottomUpAcrossFourLevels() throws {
    let log = Log()
    let a = LoggingScope("a", log: log)
    let b1 = LoggingScope("b1", log: log)
    let b2 = LoggingScope("b2", log: log)
    let c = LoggingScope("c", log: log)
    let d = LoggingScope("d", log: log)
    try b1.attach(to: a)
    try b2.attach(to: a)
    try c.attach(to: b1)
    try d.attach(to: c)
    log.clear()
    let root = RootScope()
    try a.attach(to: root)
    let activations = log.lines.filter { $0.hasSuffix("willActivate") }
    #expect(
      activations == [
        "a.willActivate", "b1.willActivate", "b2.willActivate", "c.willActivate", "d.willActivate",
      ])
    log.clear()
    a.detach()
    let deactivations = log.lines.filter { $0.hasSuffix("willDeactivate") }
    // Every node after all of its descendants; siblings in reverse attach order.
    #expect(
      deactivations == [
        "b2.willDeactivate", "d.willDeactivate", "c.willDeactivate", "b1.willDeactivate",
        "a.willDeactivate",
      ])
    #expect(d.state == .attached)
    #expect(a.state == .detached)
  }

  @Test func cancellablesAreCancelledOnDeactivationAndRecreatedOnReactivation() throws {
    let log = Log()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let node = LoggingScope("node", log: log)
    node.onActivate = { cancellables in
      subject.sink { received.append($0) }.store(in: &cancellables)
    }
    let root = RootScope()
    let other = Scope()
    try node.attach(to: root)
    subject.send(1)
    try node.attach(to: other)  // inactive host: deactivates, no detach callbacks
    subject.send(2)
    try node.attach(to: root)
    subject.send(3)
    #expect(received == [1, 3])
    #expect(!log.lines.contains("node.willDetach"))
    #expect(log.lines.filter { $0 == "node.willActivate" }.count == 2)
  }

  @Test func movingBetweenActiveHostsRunsNoCallbacks() throws {
    let log = Log()
    let root = RootScope()
    let first = Scope()
    let second = Scope()
    try first.attach(to: root)
    try second.attach(to: root)
    let node = LoggingScope("node", log: log)
    try node.attach(to: first)
    log.clear()
    try node.attach(to: second)
    #expect(log.lines.isEmpty)
    #expect(node.state == .active)
    #expect(node.host === second)
    #expect(first.children.isEmpty)
  }

  @Test func attachingToTheCurrentHostIsANoOp() throws {
    let log = Log()
    let root = RootScope()
    let node = LoggingScope("node", log: log)
    try node.attach(to: root)
    log.clear()
    try node.attach(to: root)
    try root.host(node)
    #expect(log.lines.isEmpty)
    #expect(root.children.count == 1)
  }

  @Test func statePublisherEmitsCurrentThenChanges() throws {
    let node = Scope()
    var states: [ActivityState] = []
    let cancellable = node.statePublisher.sink { states.append($0) }
    let root = RootScope()
    try node.attach(to: root)
    node.detach()
    #expect(states == [.detached, .attached, .active, .attached, .detached])
    cancellable.cancel()
  }

  @Test func anonymousBehaviorRunsItsClosureWhileActive() throws {
    let subject = PassthroughSubject<String, Never>()
    var received: [String] = []
    let behavior = AnonymousBehavior { cancellables in
      subject.sink { received.append($0) }.store(in: &cancellables)
    }
    let root = RootScope()
    try behavior.attach(to: root)
    subject.send("on")
    behavior.detach()
    subject.send("off")
    #expect(received == ["on"])
  }

  @Test func whileActiveReceiverCancelsOnDeactivationAndWhenInactive() throws {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let scope = Scope()
    subject.sink { received.append($0) }.store(in: scope.whileActiveReceiver)
    subject.send(1)  // stored while inactive: cancelled at once
    let root = RootScope()
    try scope.attach(to: root)
    subject.sink { received.append($0 * 10) }.store(in: scope.whileActiveReceiver)
    subject.send(2)
    scope.detach()
    subject.send(3)
    #expect(received == [20])
    #expect(scope.whileActiveReceiver.count == 0)
  }

  /// The first place a user stores a subscription: an override of willActivate.
  @Test func willActivateMayStoreIntoWhileActiveReceiver() throws {
    final class Feature: Scope {
      let subject: PassthroughSubject<Int, Never>
      let received = Log()
      init(subject: PassthroughSubject<Int, Never>) {
        self.subject = subject
        super.init()
      }
      override func willActivate(cancellables: inout Set<AnyCancellable>) {
        subject.sink { [received] in received.append("\($0)") }.store(in: whileActiveReceiver)
      }
    }
    let subject = PassthroughSubject<Int, Never>()
    let feature = Feature(subject: subject)
    let root = RootScope()
    try feature.attach(to: root)
    #expect(feature.whileActiveReceiver.count == 1)
    subject.send(1)
    feature.detach()
    subject.send(2)
    try feature.attach(to: root)
    subject.send(3)
    #expect(feature.received.lines == ["1", "3"])
    #expect(feature.whileActiveReceiver.count == 1)
    feature.detach()
    #expect(feature.whileActiveReceiver.count == 0)
  }

  @Test func evictOfANonChildDoesNothing() throws {
    let root = RootScope()
    let node = Scope()
    let stranger = Scope()
    try node.attach(to: root)
    stranger.evict(node)
    #expect(node.state == .active)
    root.evict(node)
    #expect(node.state == .detached)
  }

  @Test func debugDescriptionDrawsTheTree() throws {
    let root = RootScope()
    let child = Scope()
    try child.attach(to: root)
    try AnonymousBehavior { _ in }.attach(to: child)
    #expect(
      root.debugDescription
        == "RootScope (active)\n  Scope (active)\n    AnonymousBehavior (active)")
  }
}

@Suite struct ScopeErrorTests {
  @Test func attachingToItselfOrADescendantThrowsAndChangesNothing() throws {
    let root = RootScope()
    let parent = Scope()
    let child = Scope()
    try parent.attach(to: root)
    try child.attach(to: parent)
    #expect(throws: ScopeError.self) { try parent.attach(to: parent) }
    #expect(throws: ScopeError.self) { try parent.attach(to: child) }
    #expect(parent.host === root)
    #expect(child.host === parent)
    #expect(parent.state == .active)
  }

  @Test func attachingARootThrows() {
    let root = RootScope()
    let other = Scope()
    #expect(throws: ScopeError.rootCannotBeAttached(root: "RootScope")) {
      try root.attach(to: other)
    }
    #expect(root.state == .active)
    #expect(other.children.isEmpty)
    let message = ScopeError.rootCannotBeAttached(root: "RootScope").description
    #expect(message.contains("nothing changed"))
  }
}

@Suite struct ReentrancyTests {
  @Test func callbacksMayAttachAndDetachOtherNodes() throws {
    let log = Log()
    let root = RootScope()
    let spawner = LoggingScope("spawner", log: log)
    let spawned = LoggingScope("spawned", log: log)
    let victim = LoggingScope("victim", log: log)
    try victim.attach(to: root)
    spawner.onActivate = { _ in
      try? spawned.attach(to: spawner)
      victim.detach()
    }
    try spawner.attach(to: root)
    #expect(spawned.state == .active)
    #expect(victim.state == .detached)
    let spawnedLines = log.lines.filter { $0.hasPrefix("spawned") }
    #expect(spawnedLines == ["spawned.willAttach", "spawned.willActivate"])
    let victimLines = log.lines.filter { $0.hasPrefix("victim") }
    #expect(
      victimLines.suffix(4) == [
        "victim.willDeactivate", "victim.didDeactivate", "victim.willDetach", "victim.didDetach",
      ])
  }

  @Test func willAttachMayDetachTheSameNodeAndStaysBalanced() throws {
    let log = Log()
    let root = RootScope()
    let node = LoggingScope("node", log: log)
    node.onWillAttach = { node.detach() }
    try node.attach(to: root)
    #expect(node.state == .detached)
    let lines = log.lines
    #expect(
      lines.filter { $0 == "node.willAttach" }.count
        == lines.filter { $0 == "node.didDetach" }.count)
  }
}

@Suite struct ScopeMemoryTests {
  @Test func droppedSubtreeIsReleased() throws {
    let root = RootScope()
    weak var weakScope: Scope?
    weak var weakLeaf: Behavior?
    do {
      let scope = Scope()
      let leaf = AnonymousBehavior { _ in }
      weakScope = scope
      weakLeaf = leaf
      try leaf.attach(to: scope)
      try scope.attach(to: root)
      scope.detach()
    }
    #expect(weakScope == nil)
    #expect(weakLeaf == nil)
  }

  @Test func closuresStoredInCancellablesAreReleasedOnDeactivation() throws {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: TokenObject?
    let behavior: AnonymousBehavior
    do {
      let token = TokenObject()
      weakToken = token
      behavior = AnonymousBehavior { cancellables in
        subject.sink { _ in _ = token }.store(in: &cancellables)
      }
    }
    let root = RootScope()
    try behavior.attach(to: root)
    behavior.detach()
    #expect(weakToken != nil)  // still held by the behavior's closure
    _ = behavior
  }

  @Test func manyAttachDetachCyclesLeaveNoGrowth() throws {
    let root = RootScope()
    let node = Scope()
    for _ in 0..<1_000_000 {
      try node.attach(to: root)
      node.detach()
    }
    #expect(root.children.isEmpty)
    #expect(node.state == .detached)
  }
}

final class TokenObject: @unchecked Sendable {}

@Suite struct WhileActiveTaskTests {
  @Test func taskRunsWhileActiveAndIsCancelledOnDeactivation() async throws {
    let root = RootScope()
    let scope = Scope()
    let starts = LockedBox(0)
    let cancellations = LockedBox(0)
    scope.whileActive {
      starts.withLock { $0 += 1 }
      while !Task.isCancelled { await Task.yield() }
      cancellations.withLock { $0 += 1 }
    }
    try scope.attach(to: root)
    while starts.withLock({ $0 }) < 1 { await Task.yield() }
    scope.detach()
    while cancellations.withLock({ $0 }) < 1 { await Task.yield() }
    try scope.attach(to: root)
    while starts.withLock({ $0 }) < 2 { await Task.yield() }
    scope.detach()
    while cancellations.withLock({ $0 }) < 2 { await Task.yield() }
    #expect(starts.withLock { $0 } == 2)
  }
}
