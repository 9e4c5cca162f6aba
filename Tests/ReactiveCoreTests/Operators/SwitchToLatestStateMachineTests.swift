import Testing

@testable import ReactiveCore

/// The decisions of ``SwitchToLatestStateMachine`` on their own: which inner publisher
/// counts, what it is asked for, and when the subscription completes.
@Suite struct SwitchToLatestStateMachineTests {
  /// Subscribes a new inner publisher with `subscription`, returning its generation.
  private static func switchTo(
    _ subscription: RecordingSubscription, in machine: inout SwitchToLatestStateMachine
  ) -> UInt64 {
    guard case .subscribe(let generation, _) = machine.publisherArrived() else {
      Issue.record("a publisher while running is subscribed to")
      return 0
    }
    _ = machine.innerSubscribed(subscription, generation: generation)
    return generation
  }

  @Test func aNewPublisherReplacesTheCurrentOneAndInheritsTheDemand() {
    let first = RecordingSubscription()
    var machine = SwitchToLatestStateMachine()
    _ = machine.outerSubscribed(RecordingSubscription())
    _ = machine.demandRequested(.max(3))
    let old = Self.switchTo(first, in: &machine)
    guard case .subscribe(let generation, let replaced?) = machine.publisherArrived() else {
      Issue.record("the running inner subscription is handed out to be cancelled")
      return
    }
    #expect(ObjectIdentifier(replaced as AnyObject) == ObjectIdentifier(first))
    guard
      case .request(.max(3)) = machine.innerSubscribed(
        RecordingSubscription(), generation: generation)
    else {
      Issue.record("the new inner publisher is asked for the outstanding demand")
      return
    }
    guard case .drop = machine.innerValueArrived(generation: old) else {
      Issue.record("a replaced publisher's value is dropped")
      return
    }
    guard case .cancel = machine.innerSubscribed(RecordingSubscription(), generation: old) else {
      Issue.record("a replaced publisher's late subscription is cancelled")
      return
    }
  }

  @Test func upstreamsFinishWaitsForTheCurrentInnerPublisher() {
    var machine = SwitchToLatestStateMachine()
    _ = machine.outerSubscribed(RecordingSubscription())
    let generation = Self.switchTo(RecordingSubscription(), in: &machine)
    guard case .ignore = machine.outerFinished() else {
      Issue.record("upstream's finish waits while an inner publisher runs")
      return
    }
    guard case .complete(nil) = machine.innerFinished(generation: generation) else {
      Issue.record("the inner publisher's finish completes the subscription")
      return
    }
  }

  @Test func anInnerFailureCancelsUpstreamAndCompletesOnce() {
    let outer = RecordingSubscription()
    var machine = SwitchToLatestStateMachine()
    _ = machine.outerSubscribed(outer)
    let generation = Self.switchTo(RecordingSubscription(), in: &machine)
    guard case .complete(let cancelling?) = machine.innerFailed(generation: generation) else {
      Issue.record("an inner failure cancels upstream")
      return
    }
    #expect(ObjectIdentifier(cancelling as AnyObject) == ObjectIdentifier(outer))
    guard case .ignore = machine.outerFailed() else {
      Issue.record("nothing follows the failure")
      return
    }
  }

  @Test func anUpstreamFailureCancelsTheCurrentInnerPublisher() {
    let inner = RecordingSubscription()
    var machine = SwitchToLatestStateMachine()
    _ = machine.outerSubscribed(RecordingSubscription())
    let generation = Self.switchTo(inner, in: &machine)
    guard case .complete(let cancelling?) = machine.outerFailed() else {
      Issue.record("an upstream failure cancels the inner publisher")
      return
    }
    #expect(ObjectIdentifier(cancelling as AnyObject) == ObjectIdentifier(inner))
    guard case .ignore = machine.innerFinished(generation: generation) else {
      Issue.record("no second completion follows")
      return
    }
  }
}
