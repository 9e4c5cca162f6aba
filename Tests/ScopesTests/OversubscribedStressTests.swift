// Eight threads at once on a two-core machine against one scope tree. Correctness only:
// exact callback sequences and counts, a consistent final structure, nothing delivered
// to a deactivated node's subscriptions after the detach returned; no timing.

import ModelTesting
import ReactiveCore
import Scopes
import Synchronization
import Testing

/// A lifecycle callback, as a node logs it.
private enum Callback: Sendable {
  case willAttach, willActivate, willDeactivate, didDeactivate, willDetach, didDetach
}

/// A scope that logs its own callbacks, in order, through a probe shared by every node of
/// a test.
private final class LoggedScope: Scope {
  let probe: OverlapProbe
  private let box = LockedBox<[Callback]>([])

  init(probe: OverlapProbe) {
    self.probe = probe
    super.init()
  }

  var log: [Callback] { box.withLock { $0 } }

  private func record(_ callback: Callback) {
    probe.during { box.withLock { $0.append(callback) } }
  }

  override func willAttach() { record(.willAttach) }
  override func willActivate(cancellables: inout Set<AnyCancellable>) { record(.willActivate) }
  override func willDeactivate() { record(.willDeactivate) }
  override func didDeactivate() { record(.didDeactivate) }
  override func willDetach() { record(.willDetach) }
  override func didDetach() { record(.didDetach) }
}

/// Carries nodes, which are not `Sendable`, into the threads; the tree's lock guards them.
private struct Shared<Value>: @unchecked Sendable {
  let value: Value
}

/// Replays `log` on the documented lifecycle (willAttach → willActivate → … →
/// willDeactivate → didDeactivate → willDetach → didDetach, activation optional) and
/// returns the state it ends in, or `nil` if a callback came out of turn or the log stops
/// in the middle of a transition.
private func replay(_ log: [Callback]) -> ActivityState? {
  /// Where a node is in its lifecycle, between callbacks.
  enum Step { case detached, attached, active, deactivating, detaching }
  var step = Step.detached
  for callback in log {
    switch (step, callback) {
    case (.detached, .willAttach): step = .attached
    case (.attached, .willActivate): step = .active
    case (.attached, .willDetach): step = .detaching
    case (.active, .willDeactivate): step = .deactivating
    case (.deactivating, .didDeactivate): step = .attached
    case (.detaching, .didDetach): step = .detached
    default: return nil
    }
  }
  switch step {
  case .detached: return .detached
  case .attached: return .attached
  case .active: return .active
  case .deactivating, .detaching: return nil
  }
}

/// Proves, with eight threads released together (more threads than cores), the tree's
/// thread model: callbacks never overlap, each node's callbacks follow the documented
/// order exactly as often as its operations imply, moves from many threads leave a
/// consistent tree whose states are what its structure says, and a node's subscriptions
/// receive nothing sent after its detach returned, and are all released.
@Suite struct OversubscribedStressTests {
  static let threads = 8

  /// Each thread attaches and detaches its own three scopes (each hosting a scope of its
  /// own) on one shared active host, 150 times: every scope logs exactly 150 rounds of
  /// willAttach, willActivate, willDeactivate, didDeactivate, willDetach, didDetach; each
  /// hosted scope exactly 150 activations and deactivations; no callbacks overlap.
  @Test func eightThreadsTogglingTheirOwnScopesOnOneHost() throws {
    let rounds = 150
    let probe = OverlapProbe()
    let root = RootScope()
    let host = Scope()
    try host.attach(to: root)
    let scopes = (0..<(Self.threads * 3)).map { _ in LoggedScope(probe: probe) }
    let inner = scopes.map { _ in LoggedScope(probe: probe) }
    for (scope, child) in zip(scopes, inner) { try child.attach(to: scope) }
    let shared = Shared(value: (host, scopes))
    let refused = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { thread in
      let (host, scopes) = shared.value
      let mine = scopes[(thread * 3)..<(thread * 3 + 3)]
      for round in 0..<rounds {
        if round % 4 == 0 { yieldToOtherThreads() }
        for scope in mine {
          do { try scope.attach(to: host) } catch { refused.add(1, ordering: .relaxed) }
        }
        // Detach in an order that changes from round to round.
        for offset in 0..<3 { mine[mine.startIndex + (round + offset) % 3].detach() }
      }
    }
    #expect(refused.load(ordering: .relaxed) == 0)
    let round: [Callback] = [
      .willAttach, .willActivate, .willDeactivate, .didDeactivate, .willDetach, .didDetach,
    ]
    let full = Array(repeating: round, count: rounds).flatMap { $0 }
    #expect(scopes.allSatisfy { $0.log == full })
    let hosted: [Callback] =
      [.willAttach]
      + Array(repeating: [.willActivate, .willDeactivate, .didDeactivate], count: rounds)
      .flatMap { $0 }
    #expect(inner.allSatisfy { $0.log == hosted })
    #expect(probe.overlaps.load(ordering: .relaxed) == 0, "two callbacks ran at once")
    #expect(host.children.isEmpty)
    #expect(scopes.allSatisfy { $0.state == .detached && $0.host == nil })
    #expect(inner.allSatisfy { $0.state == .attached })
  }

  /// Eight threads move twelve scopes between two hosts under the root, a host outside
  /// the tree and each other, and detach them, at random (a cycle is refused). Afterwards
  /// every scope is in its host's children exactly once and in no other's, no chain of
  /// hosts loops, each scope's state is what its chain says (active under the root,
  /// attached elsewhere, detached without a host), and each scope's callbacks replay on
  /// the documented lifecycle to exactly that state; no callbacks overlap.
  @Test func movingScopesBetweenHostsFromEightThreadsKeepsATree() throws {
    let probe = OverlapProbe()
    let root = RootScope()
    let hosts = [Scope(), Scope(), Scope()]
    try hosts[0].attach(to: root)
    try hosts[1].attach(to: root)
    let scopes = (0..<12).map { _ in LoggedScope(probe: probe) }
    let shared = Shared(value: (hosts, scopes))
    let refused = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { thread in
      let (hosts, scopes) = shared.value
      var random = SeededGenerator(state: UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15)
      for step in 0..<400 {
        if step % 16 == 0 { yieldToOtherThreads() }
        let scope = scopes.randomElement(using: &random)!
        let target = Int.random(in: 0..<(hosts.count + scopes.count + 2), using: &random)
        if target >= hosts.count + scopes.count {
          scope.detach()
          continue
        }
        do {
          try scope.attach(to: target < hosts.count ? hosts[target] : scopes[target - hosts.count])
        } catch {
          refused.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(probe.overlaps.load(ordering: .relaxed) == 0, "two callbacks ran at once")
    #expect(refused.load(ordering: .relaxed) > 0, "no cycle was ever proposed")
    let allHosts: [Scope] = [root] + hosts + scopes
    for scope in scopes {
      let holders = allHosts.filter { host in host.children.contains { $0 === scope } }
      if let host = scope.host {
        #expect(holders.count == 1 && holders[0] === host, "children and host disagree")
      } else {
        #expect(holders.isEmpty, "a detached scope is still someone's child")
      }
      var chainTop: Behavior = scope
      var steps = 0
      while let up = chainTop.host, steps <= allHosts.count {
        chainTop = up
        steps += 1
      }
      #expect(steps <= allHosts.count, "a chain of hosts loops")
      let expected: ActivityState =
        scope.host == nil ? .detached : (chainTop === root ? .active : .attached)
      #expect(scope.state == expected)
      #expect(replay(scope.log) == expected, "callbacks out of order or unbalanced")
    }
  }

  /// A weak reference to what a subscription made at an activation held.
  private struct WeakToken: @unchecked Sendable {
    weak var object: Token?
  }

  /// An object whose release the tests watch.
  private final class Token: Sendable {}

  /// A number any thread may read and change.
  private final class Counter: Sendable {
    let value = Atomic<Int>(0)
  }

  /// A value sent by a sender thread: what it knew, per listening scope, of the last
  /// activation whose detach had returned.
  private struct Marks: Sendable {
    var closed: [Int]
  }

  /// A scope that, at each activation, subscribes twice to a publisher (through its
  /// `cancellables` and its `whileActiveReceiver`) and counts the values that reach an
  /// activation although their sender saw that activation's detach return before sending.
  private final class Listener: Scope {
    let index: Int
    let values: AnyPublisher<Marks, Never>
    let activations = Atomic<Int>(0)
    let lateValues = Counter()
    let tokens = LockedBox<[WeakToken]>([])

    init(index: Int, values: AnyPublisher<Marks, Never>) {
      self.index = index
      self.values = values
      super.init()
    }

    override func willActivate(cancellables: inout Set<AnyCancellable>) {
      let activation = activations.add(1, ordering: .relaxed).newValue
      for viaReceiver in [false, true] {
        let token = Token()
        tokens.withLock { $0.append(WeakToken(object: token)) }
        let (index, lateValues) = (index, lateValues)
        let cancellable = values.sink { [token] marks in
          withExtendedLifetime(token) {}
          if marks.closed[index] >= activation { lateValues.value.add(1, ordering: .relaxed) }
        }
        if viaReceiver {
          cancellable.store(in: whileActiveReceiver)
        } else {
          cancellable.store(in: &cancellables)
        }
      }
    }
  }

  /// Four threads each attach and detach their own listening scope while four others
  /// send: no value sent after a detach returned reaches that activation's
  /// subscriptions; each activation subscribes exactly twice; and once every scope is
  /// detached every subscription has been cancelled and released.
  @Test func subscriptionsOfToggledScopesGetNothingSentAfterTheDetach() {
    let rounds = 200
    let togglers = Self.threads / 2
    let root = RootScope()
    let subscribed = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)
    let subject = PassthroughSubject<Marks, Never>()
    let counted = subject.handleEvents(
      receiveSubscription: { _ in subscribed.add(1, ordering: .relaxed) },
      receiveCancel: { cancelled.add(1, ordering: .relaxed) }
    ).eraseToAnyPublisher()
    let listeners = (0..<togglers).map { Listener(index: $0, values: counted) }
    let closed = (0..<togglers).map { _ in Counter() }
    let shared = Shared(value: (root, listeners))
    let toggling = Atomic<Int>(togglers)
    let refused = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { thread in
      let (root, listeners) = shared.value
      guard thread < togglers else {
        var sent = 0
        while toggling.load(ordering: .acquiring) > 0 {
          sent += 1
          if sent % 16 == 0 { yieldToOtherThreads() }
          subject.send(Marks(closed: closed.map { $0.value.load(ordering: .acquiring) }))
        }
        return
      }
      let listener = listeners[thread]
      for activation in 1...rounds {
        if activation % 4 == 0 { yieldToOtherThreads() }
        do { try listener.attach(to: root) } catch { refused.add(1, ordering: .relaxed) }
        listener.detach()
        closed[thread].value.store(activation, ordering: .releasing)
      }
      toggling.subtract(1, ordering: .releasing)
    }
    #expect(refused.load(ordering: .relaxed) == 0)
    for listener in listeners {
      #expect(listener.activations.load(ordering: .relaxed) == rounds)
      #expect(listener.lateValues.value.load(ordering: .relaxed) == 0, "a value sent after detach")
      #expect(listener.whileActiveReceiver.count == 0)
      let tokens = listener.tokens.withLock { $0 }
      #expect(tokens.count == 2 * rounds)
      #expect(tokens.allSatisfy { $0.object == nil }, "a subscription was not released")
    }
    #expect(subscribed.load(ordering: .relaxed) == 2 * rounds * togglers)
    #expect(cancelled.load(ordering: .relaxed) == 2 * rounds * togglers)
  }
}
