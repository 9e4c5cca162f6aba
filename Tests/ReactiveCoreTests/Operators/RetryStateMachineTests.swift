import Testing

@testable import ReactiveCore

/// The decisions of ``RetryStateMachine`` on their own: when to subscribe again, and that
/// a failure during a resubscription is retried after it returns.
@Suite struct RetryStateMachineTests {
  /// The upstream type; the machine only hands it back to be subscribed to.
  typealias Upstream = Empty<Int, TestError>

  @Test func theSubscriberGetsOneSubscriptionAndEachAttemptTheOutstandingDemand() {
    var machine = RetryStateMachine(upstream: Upstream(), retries: 1, downstream: "downstream")
    guard case .start("downstream", request: .none) = machine.subscribed(RecordingSubscription())
    else {
      Issue.record("the first attempt hands the subscription downstream")
      return
    }
    _ = machine.demandRequested(.max(2))
    guard case .resubscribe = machine.completed(failed: true), case .done = machine.resubscribed()
    else {
      Issue.record("a failure with a retry left subscribes again")
      return
    }
    guard case .resume(request: .max(2)) = machine.subscribed(RecordingSubscription()) else {
      Issue.record("a later attempt is asked for the outstanding demand only")
      return
    }
    guard case .complete("downstream") = machine.completed(failed: true) else {
      Issue.record("with no retry left the failure goes downstream")
      return
    }
  }

  @Test func aFailureDuringAResubscriptionIsRetriedAfterItReturns() {
    var machine = RetryStateMachine(upstream: Upstream(), retries: 2, downstream: "downstream")
    _ = machine.subscribed(RecordingSubscription())
    guard case .resubscribe = machine.completed(failed: true) else {
      Issue.record("the first failure subscribes again")
      return
    }
    // The new attempt fails while it is being subscribed to.
    _ = machine.subscribed(RecordingSubscription())
    guard case .ignore = machine.completed(failed: true), case .again = machine.resubscribed()
    else {
      Issue.record("the failure waits for the resubscription to return, then repeats it")
      return
    }
    _ = machine.subscribed(RecordingSubscription())
    guard case .complete = machine.completed(failed: true) else {
      Issue.record("the retries are used up")
      return
    }
  }

  @Test func aFinishEndsTheSubscriptionAndACancelStopsTheAttempt() {
    let attempt = RecordingSubscription()
    var finished = RetryStateMachine(upstream: Upstream(), retries: nil, downstream: "downstream")
    _ = finished.subscribed(attempt)
    guard case .complete = finished.completed(failed: false) else {
      Issue.record("a finish is not retried")
      return
    }
    var cancelled = RetryStateMachine(upstream: Upstream(), retries: nil, downstream: "downstream")
    _ = cancelled.subscribed(attempt)
    let stopped = cancelled.cancelled()
    #expect(stopped.map { ObjectIdentifier($0 as AnyObject) } == ObjectIdentifier(attempt))
    guard case .ignore = cancelled.completed(failed: true) else {
      Issue.record("nothing is retried after a cancel")
      return
    }
  }
}
