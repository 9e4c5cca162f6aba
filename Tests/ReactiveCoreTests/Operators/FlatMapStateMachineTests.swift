import Testing

@testable import ReactiveCore

/// The decisions of ``FlatMapStateMachine`` on their own, without threads or publishers:
/// what waits, what goes out, and who is asked for more.
@Suite struct FlatMapStateMachineTests {
  /// A machine subscribed to `upstream`, as `Guarded.adopt` leaves it.
  private static func subscribed(to upstream: RecordingSubscription) -> Lifecycle<
    FlatMapStateMachine<Int>
  > {
    var machine = Lifecycle(FlatMapStateMachine<Int>())
    _ = machine.adopt(upstream)
    return machine
  }

  /// Makes an inner publisher and subscribes it with `inner`, returning its index.
  private static func addInner(
    _ inner: RecordingSubscription, to machine: inout Lifecycle<FlatMapStateMachine<Int>>
  ) -> Int {
    guard case .subscribeInner(let index) = machine.machine.elementArrived() else {
      Issue.record("an element while running makes an inner publisher")
      return 0
    }
    _ = machine.machine.innerSubscribed(index, inner)
    return index
  }

  @Test func aValueWithoutDemandWaitsAndItsPublisherIsAskedAgainOnceDelivered() {
    let inner = RecordingSubscription()
    var machine = Self.subscribed(to: RecordingSubscription())
    let index = Self.addInner(inner, to: &machine)
    guard case .buffered = machine.machine.innerValueArrived(10, from: index) else {
      Issue.record("a value without demand waits")
      return
    }
    guard case .drain = machine.machine.demandRequested(.max(2), insideDelivery: false),
      case .deliverThenAsk(let value, let source) = machine.machine.nextBuffered()
    else {
      Issue.record("a request drains the waiting value")
      return
    }
    #expect(value == 10 && ObjectIdentifier(source as AnyObject) == ObjectIdentifier(inner))
    // While the drain asks the publisher, a new value queues behind the waiting ones.
    machine.machine.askingSource(afterAdding: .none)
    guard case .buffered = machine.machine.innerValueArrived(11, from: index) else {
      Issue.record("a value that arrives while a drain asks for more waits")
      return
    }
    machine.machine.sourceAsked()
    guard case .deliverThenAsk(11, _) = machine.machine.nextBuffered() else {
      Issue.record("the queued value goes out next")
      return
    }
    guard case .wait = machine.machine.nextBuffered() else {
      Issue.record("an empty buffer stops the drain")
      return
    }
  }

  @Test func aValueWithDemandGoesStraightOutAndDrainsWhatWaitedMeanwhile() {
    var machine = Self.subscribed(to: RecordingSubscription())
    let index = Self.addInner(RecordingSubscription(), to: &machine)
    _ = machine.machine.demandRequested(.max(1), insideDelivery: false)
    guard case .deliverOne = machine.machine.innerValueArrived(1, from: index) else {
      Issue.record("a value with demand takes one unit and goes out")
      return
    }
    guard case .buffered = machine.machine.innerValueArrived(2, from: index) else {
      Issue.record("no demand is left for the second value")
      return
    }
    guard case .drain = machine.machine.deliveredOne(returning: .max(1)) else {
      Issue.record("demand returned by the delivery drains the waiting value")
      return
    }
  }

  @Test func downstreamFinishesOnlyOnceUpstreamAndEveryInnerHaveFinished() {
    var machine = Self.subscribed(to: RecordingSubscription())
    guard case .subscribeInner(let index) = machine.machine.elementArrived() else {
      Issue.record("an element makes an inner publisher")
      return
    }
    // The inner publisher is made but not yet subscribed: nothing finishes.
    guard case .wait = machine.upstreamFinished() else {
      Issue.record("a pending inner publisher holds the finish")
      return
    }
    _ = machine.machine.innerSubscribed(index, RecordingSubscription())
    guard case .finish = machine.innerFinished(index, refillsSlots: false) else {
      Issue.record("the last inner publisher's finish is downstream's")
      return
    }
    guard case .drop = machine.machine.elementArrived() else {
      Issue.record("nothing runs after the finish")
      return
    }
  }

  @Test func aFinishedInnerFreesASlotThatUpstreamIsAskedToFill() {
    let upstream = RecordingSubscription()
    var machine = Self.subscribed(to: upstream)
    let index = Self.addInner(RecordingSubscription(), to: &machine)
    guard case .requestElement(let asked) = machine.innerFinished(index, refillsSlots: true) else {
      Issue.record("a limited flatMap asks upstream for one more element")
      return
    }
    #expect(ObjectIdentifier(asked as AnyObject) == ObjectIdentifier(upstream))
  }

  @Test func anInnerFailureCancelsTheOthersButNotItselfNorUpstream() {
    let upstream = RecordingSubscription()
    let failing = RecordingSubscription()
    let other = RecordingSubscription()
    var machine = Self.subscribed(to: upstream)
    let failed = Self.addInner(failing, to: &machine)
    let kept = Self.addInner(other, to: &machine)
    guard case .fail(let cancelling) = machine.machine.innerFailed(failed) else {
      Issue.record("the first failure goes downstream")
      return
    }
    #expect(Array(cancelling.keys) == [kept])
    guard case .none = machine.machine.innerFailed(kept) else {
      Issue.record("a second failure is not delivered")
      return
    }
    // Upstream is still held; the subscriber's cancel lets it go.
    guard case .cancel(_, let released?, _) = machine.cancelled() else {
      Issue.record("a cancel after an inner failure cancels upstream")
      return
    }
    #expect(ObjectIdentifier(released as AnyObject) == ObjectIdentifier(upstream))
  }

  @Test func anUpstreamFailureCancelsEveryInnerAndFailsOnce() {
    var machine = Self.subscribed(to: RecordingSubscription())
    let first = Self.addInner(RecordingSubscription(), to: &machine)
    let second = Self.addInner(RecordingSubscription(), to: &machine)
    guard case .cancelInnersThenFail(let inners) = machine.upstreamFailed() else {
      Issue.record("an upstream failure goes downstream")
      return
    }
    #expect(Set(inners.keys) == [first, second])
    guard case .cancelInners(let left) = machine.upstreamFailed(), left.isEmpty else {
      Issue.record("a second failure only cancels what is left")
      return
    }
  }

  @Test func demandBecomingUnlimitedFlushesTheBufferOrOnlyAsksInnersFromInsideADelivery() {
    var machine = Self.subscribed(to: RecordingSubscription())
    let index = Self.addInner(RecordingSubscription(), to: &machine)
    _ = machine.machine.innerValueArrived(1, from: index)
    _ = machine.machine.innerValueArrived(2, from: index)
    var nested = machine
    guard
      case .requestUnlimited(let asked) = nested.machine.demandRequested(
        .unlimited, insideDelivery: true)
    else {
      Issue.record("from inside a delivery, only the inner publishers are asked")
      return
    }
    #expect(Array(asked.keys) == [index])
    guard
      case .flush(let waiting, let inners) = machine.machine.demandRequested(
        .unlimited, insideDelivery: false)
    else {
      Issue.record("unlimited demand flushes the buffer")
      return
    }
    #expect(waiting.map(\.value) == [1, 2] && Array(inners.keys) == [index])
    guard case .deliver = machine.machine.innerValueArrived(3, from: index) else {
      Issue.record("with unlimited demand a value goes straight out")
      return
    }
  }
}

/// ``FlatMapStateMachine`` on its ``Lifecycle``: every event in every phase.
@Suite struct FlatMapStateMachineTableTests {
  typealias Machine = Lifecycle<FlatMapStateMachine<Int>>

  enum Phase: String, CaseIterable, Sendable {
    case running, upstreamFinished, completed, cancelled
  }

  enum Event: String, CaseIterable, Sendable {
    case element, upstreamFinish, upstreamFailure, innerSubscription, innerValue
    case innerFinish, innerFailure, request, cancel
  }

  /// A machine in `phase`, subscribed to upstream, with inner publisher 1 subscribed
  /// (running, upstreamFinished) or gone (completed by its failure, cancelled), and
  /// inner publisher 2 made but not yet subscribed.
  static func machine(in phase: Phase) -> Machine {
    var machine = Machine(FlatMapStateMachine())
    _ = machine.adopt(RecordingSubscription())
    _ = machine.machine.elementArrived()
    _ = machine.machine.innerSubscribed(1, RecordingSubscription())
    _ = machine.machine.elementArrived()
    switch phase {
    case .running: break
    case .upstreamFinished: _ = machine.upstreamFinished()
    case .completed: _ = machine.machine.innerFailed(1)
    case .cancelled: _ = machine.cancelled()
    }
    return machine
  }

  static func expected(_ phase: Phase, _ event: Event) -> String {
    switch (phase, event) {
    case (.running, .element): "subscribe inner 3"
    case (.upstreamFinished, .element): "trap"
    case (.completed, .element), (.cancelled, .element): "drop"
    case (.running, .upstreamFinish): "wait, upstreamFinished"
    case (.upstreamFinished, .upstreamFinish): "wait, upstreamFinished"
    case (.completed, .upstreamFinish): "wait, completed"
    case (.cancelled, .upstreamFinish): "wait, cancelled"
    case (.running, .upstreamFailure), (.upstreamFinished, .upstreamFailure):
      "cancel 1 inner(s) then fail, completed"
    case (.completed, .upstreamFailure): "cancel 0 inner(s), completed"
    case (.cancelled, .upstreamFailure): "cancel 0 inner(s), cancelled"
    case (.running, .innerSubscription), (.upstreamFinished, .innerSubscription):
      "request 1"
    case (.completed, .innerSubscription), (.cancelled, .innerSubscription): "cancel it"
    case (.running, .innerValue), (.upstreamFinished, .innerValue), (.completed, .innerValue):
      "buffered"
    case (.cancelled, .innerValue): "drop"
    case (.running, .innerFinish): "nothing"
    // Inner publisher 2 is still pending, so the subscription does not finish yet.
    case (.upstreamFinished, .innerFinish): "nothing"
    case (.completed, .innerFinish), (.cancelled, .innerFinish): "nothing"
    case (.running, .innerFailure), (.upstreamFinished, .innerFailure):
      "fail, cancelling 0 other(s), completed"
    case (.completed, .innerFailure), (.cancelled, .innerFailure): "nothing"
    case (.running, .request), (.upstreamFinished, .request): "drain"
    case (.completed, .request), (.cancelled, .request): "nothing"
    case (.running, .cancel): "cancel 1 inner(s) and upstream"
    // Upstream's finish already let go of its subscription.
    case (.upstreamFinished, .cancel): "cancel 1 inner(s)"
    case (.completed, .cancel): "cancel 0 inner(s) and upstream"
    case (.cancelled, .cancel): "nothing"
    }
  }

  @Test(arguments: Phase.allCases, Event.allCases)
  func answersEveryEventInEveryPhase(_ phase: Phase, _ event: Event) {
    let expected = Self.expected(phase, event)
    // The trapping pair is checked by its own exit test below.
    guard expected != "trap" else { return }
    var machine = Self.machine(in: phase)
    let outcome: String
    switch event {
    case .element:
      switch machine.machine.elementArrived() {
      case .subscribeInner(let index): outcome = "subscribe inner \(index)"
      case .drop: outcome = "drop"
      }
    case .upstreamFinish:
      let action = machine.upstreamFinished()
      outcome = "\(action == .finish ? "finish" : "wait"), \(machine.machine.phase)"
    case .upstreamFailure:
      switch machine.upstreamFailed() {
      case .cancelInnersThenFail(let inners):
        outcome = "cancel \(inners.count) inner(s) then fail, \(machine.machine.phase)"
      case .cancelInners(let inners):
        outcome = "cancel \(inners.count) inner(s), \(machine.machine.phase)"
      }
    case .innerSubscription:
      switch machine.machine.innerSubscribed(2, RecordingSubscription()) {
      case .request(let demand): outcome = "request \(demand.max.map(String.init) ?? "∞")"
      case .cancel: outcome = "cancel it"
      }
    case .innerValue:
      switch machine.machine.innerValueArrived(7, from: 1) {
      case .drop: outcome = "drop"
      case .deliver: outcome = "deliver"
      case .deliverOne: outcome = "deliver one"
      case .buffered: outcome = "buffered"
      }
    case .innerFinish:
      switch machine.innerFinished(1, refillsSlots: false) {
      case .none: outcome = "nothing"
      case .finish: outcome = "finish"
      case .requestElement: outcome = "request an element"
      }
    case .innerFailure:
      switch machine.machine.innerFailed(1) {
      case .none: outcome = "nothing"
      case .fail(let others):
        outcome = "fail, cancelling \(others.count) other(s), \(machine.machine.phase)"
      }
    case .request:
      switch machine.machine.demandRequested(.max(1), insideDelivery: false) {
      case .none: outcome = "nothing"
      case .requestUnlimited: outcome = "request unlimited"
      case .drain: outcome = "drain"
      case .flush: outcome = "flush"
      }
    case .cancel:
      switch machine.cancelled() {
      case .none: outcome = "nothing"
      case .cancel(let inners, let upstream, _):
        outcome = "cancel \(inners.count) inner(s)\(upstream == nil ? "" : " and upstream")"
      }
    }
    #expect(outcome == expected, "\(phase) + \(event)")
  }

  @Test func stopsOnAnElementAfterUpstreamFinished() async {
    await #expect(processExitsWith: .failure) {
      var machine = FlatMapStateMachineTableTests.machine(in: .upstreamFinished)
      _ = machine.machine.elementArrived()
    }
  }

  @Test func finishesWhenTheLastInnerPublisherFinishesAfterUpstream() {
    var machine = Self.machine(in: .upstreamFinished)
    _ = machine.machine.innerSubscribed(2, RecordingSubscription())
    guard case .none = machine.innerFinished(1, refillsSlots: false),
      case .finish = machine.innerFinished(2, refillsSlots: false)
    else {
      Issue.record("the last inner publisher's finish finishes the subscription")
      return
    }
    #expect(machine.machine.phase == .completed)
  }
}
