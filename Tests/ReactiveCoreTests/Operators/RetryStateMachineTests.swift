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

/// ``RetryStateMachine``: every event in every phase.
@Suite struct RetryStateMachineTableTests {
  enum Phase: String, CaseIterable, Sendable { case awaitingAttempt, attempt, terminal }
  enum Event: String, CaseIterable, Sendable {
    case subscription, value, request, failure, finish, cancel
  }

  /// The machine in `phase` with one retry left and a demand of one.
  static func machine(in phase: Phase) -> RetryStateMachine {
    var machine = RetryStateMachine(retries: 1)
    _ = machine.demandRequested(.max(1))
    switch phase {
    case .awaitingAttempt: break
    case .attempt: _ = machine.subscribed(RecordingSubscription())
    case .terminal:
      _ = machine.subscribed(RecordingSubscription())
      _ = machine.cancelled()
    }
    return machine
  }

  static func outcome(_ phase: Phase, _ event: Event) -> String {
    switch (phase, event) {
    case (.awaitingAttempt, .subscription): "start, asking for max(1)"
    case (_, .subscription): "cancel"
    case (.terminal, .value): "drop"
    case (_, .value): "deliver"
    case (.awaitingAttempt, .request): "hold"
    case (.attempt, .request): "pass to the attempt"
    case (.terminal, .request): "hold"
    case (.terminal, .failure), (.terminal, .finish): "ignore"
    case (_, .failure): "resubscribe"
    case (_, .finish): "complete"
    case (.attempt, .cancel): "cancel the attempt"
    case (_, .cancel): "nothing to cancel"
    }
  }

  @Test(arguments: Phase.allCases, Event.allCases)
  func retryAnswersEveryEventInEveryPhase(_ phase: Phase, _ event: Event) {
    var machine = Self.machine(in: phase)
    let outcome: String
    switch event {
    case .subscription:
      switch machine.subscribed(RecordingSubscription()) {
      case .start(let demand): outcome = "start, asking for \(demand)"
      case .resume(let demand): outcome = "resume, asking for \(demand)"
      case .cancel: outcome = "cancel"
      }
    case .value:
      switch machine.valueArrived() {
      case .drop: outcome = "drop"
      case .deliver: outcome = "deliver"
      }
    case .request:
      outcome = machine.demandRequested(.max(1)) == nil ? "hold" : "pass to the attempt"
    case .failure, .finish:
      switch machine.completed(failed: event == .failure) {
      case .ignore: outcome = "ignore"
      case .resubscribe: outcome = "resubscribe"
      case .complete: outcome = "complete"
      }
    case .cancel:
      outcome = machine.cancelled() == nil ? "nothing to cancel" : "cancel the attempt"
    }
    #expect(outcome == Self.outcome(phase, event), "\(phase) + \(event)")
  }
}
