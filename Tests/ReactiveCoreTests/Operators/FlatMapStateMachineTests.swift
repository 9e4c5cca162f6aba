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
