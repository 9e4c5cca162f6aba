import Testing

@testable import ReactiveCore

/// The decisions of ``RetryStateMachine`` (in its ``RetryState``) on their own: when to subscribe again, and that
/// a failure during a resubscription is retried after it returns.
@Suite struct RetryStateMachineTests {
  /// The upstream type; the machine only hands it back to be subscribed to.
  typealias Upstream = Empty<Int, TestError>

  @Test func theSubscriberGetsOneSubscriptionAndEachAttemptTheOutstandingDemand() {
    var state = RetryState(upstream: Upstream(), retries: 1, downstream: "downstream")
    guard case .start("downstream", request: .none) = state.subscribed(RecordingSubscription())
    else {
      Issue.record("the first attempt hands the subscription downstream")
      return
    }
    _ = state.machine.demandRequested(.max(2))
    guard case .resubscribe = state.completed(failed: true),
      case .done = state.machine.resubscribed()
    else {
      Issue.record("a failure with a retry left subscribes again")
      return
    }
    guard case .resume(request: .max(2)) = state.subscribed(RecordingSubscription()) else {
      Issue.record("a later attempt is asked for the outstanding demand only")
      return
    }
    guard case .complete("downstream") = state.completed(failed: true) else {
      Issue.record("with no retry left the failure goes downstream")
      return
    }
  }

  @Test func aFailureDuringAResubscriptionIsRetriedAfterItReturns() {
    var state = RetryState(upstream: Upstream(), retries: 2, downstream: "downstream")
    _ = state.subscribed(RecordingSubscription())
    guard case .resubscribe = state.completed(failed: true) else {
      Issue.record("the first failure subscribes again")
      return
    }
    // The new attempt fails while it is being subscribed to.
    _ = state.subscribed(RecordingSubscription())
    guard case .ignore = state.completed(failed: true), case .again = state.machine.resubscribed()
    else {
      Issue.record("the failure waits for the resubscription to return, then repeats it")
      return
    }
    _ = state.subscribed(RecordingSubscription())
    guard case .complete = state.completed(failed: true) else {
      Issue.record("the retries are used up")
      return
    }
  }

  @Test func aFinishEndsTheSubscriptionAndACancelStopsTheAttempt() {
    let attempt = RecordingSubscription()
    var finished = RetryState(upstream: Upstream(), retries: nil, downstream: "downstream")
    _ = finished.subscribed(attempt)
    guard case .complete = finished.completed(failed: false) else {
      Issue.record("a finish is not retried")
      return
    }
    var cancelled = RetryState(upstream: Upstream(), retries: nil, downstream: "downstream")
    _ = cancelled.subscribed(attempt)
    guard case .cancel(let stopped?, releasing: "downstream") = cancelled.cancelled() else {
      Issue.record("a cancel stops the attempt and lets the subscriber go")
      return
    }
    #expect(ObjectIdentifier(stopped as AnyObject) == ObjectIdentifier(attempt))
    guard case .ignore = cancelled.completed(failed: true) else {
      Issue.record("nothing is retried after a cancel")
      return
    }
  }
}
