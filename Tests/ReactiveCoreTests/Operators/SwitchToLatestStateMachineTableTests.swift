import Testing

@testable import ReactiveCore

/// ``SwitchToLatestStateMachine`` on its own: every event in every state, each stop
/// included (run in a child process).
@Suite struct SwitchToLatestStateMachineTableTests {
  typealias Machine = SwitchToLatestStateMachine

  /// The states, by where upstream stands and where the newest inner publisher does.
  /// Those with an inner publisher had two: the newest (generation 2) replaced the first
  /// while it awaited its subscription.
  enum StateCase: String, CaseIterable, Codable, Sendable {
    /// No subscription from upstream yet, and no inner publisher.
    case awaitingUpstream
    /// No subscription from upstream yet, but (from a misbehaving upstream) an inner
    /// publisher awaiting its subscription, subscribed, or finished.
    case awaitingUpstreamAwaitingInner, awaitingUpstreamInner, awaitingUpstreamInnerFinished
    /// Upstream subscribed; no inner publisher yet, or one awaiting its subscription,
    /// subscribed, or finished.
    case running, runningAwaitingInner, runningInner, runningInnerFinished
    /// Upstream finished with an inner publisher awaiting its subscription, or
    /// subscribed; in the last case upstream then sent a new subscription.
    case upstreamFinishedAwaitingInner, upstreamFinishedInner, upstreamFinishedResubscribed
    /// A completion went downstream: upstream finished with no inner publisher; upstream
    /// failed while one awaited its subscription, which then came; upstream and the inner
    /// publisher finished.
    case completed, completedAwaitingInner, completedInner, completedInnerFinished
    /// The subscriber cancelled; an inner publisher failed.
    case cancelled, innerFailed
  }

  /// The events; the inner ones come from the newest inner publisher or a replaced one
  /// (stale). With no inner publisher made, both carry generation 1, which none has.
  enum Event: String, CaseIterable, Codable, Sendable {
    case outerSubscription, publisher, outerFinish, outerFailure, request, cancel
    case innerSubscription, innerValue, innerFinish, innerFailure
    case staleSubscription, staleValue, staleFinish, staleFailure
  }

  /// A machine in a state, with the subscriptions it was given and the generations its
  /// inner events carry.
  struct Fixture {
    var machine = Machine()
    /// Upstream's subscription.
    let outer = RecordingSubscription()
    /// The newest inner publisher's subscription.
    let inner = RecordingSubscription()
    /// The newest inner publisher's generation.
    var newest: UInt64 = 1
    /// The replaced inner publisher's generation.
    var stale: UInt64 = 1
  }

  /// The machine in `state`, asked for two values.
  static func fixture(in state: StateCase) -> Fixture {
    var fixture = Fixture()
    _ = fixture.machine.demandRequested(.max(2))
    func subscribeOuter() { _ = fixture.machine.outerSubscribed(fixture.outer) }
    func twoPublishers() {
      _ = fixture.machine.publisherArrived()
      _ = fixture.machine.publisherArrived()
      fixture.newest = 2
    }
    func subscribeInner() {
      _ = fixture.machine.innerSubscribed(fixture.inner, generation: fixture.newest)
    }
    func finishInner() { _ = fixture.machine.innerFinished(generation: fixture.newest) }
    switch state {
    case .awaitingUpstream: break
    case .awaitingUpstreamAwaitingInner: twoPublishers()
    case .awaitingUpstreamInner:
      twoPublishers()
      subscribeInner()
    case .awaitingUpstreamInnerFinished:
      twoPublishers()
      subscribeInner()
      finishInner()
    case .running: subscribeOuter()
    case .runningAwaitingInner:
      subscribeOuter()
      twoPublishers()
    case .runningInner:
      subscribeOuter()
      twoPublishers()
      subscribeInner()
    case .runningInnerFinished:
      subscribeOuter()
      twoPublishers()
      subscribeInner()
      finishInner()
    case .upstreamFinishedAwaitingInner:
      subscribeOuter()
      twoPublishers()
      _ = fixture.machine.outerFinished()
    case .upstreamFinishedInner, .upstreamFinishedResubscribed:
      subscribeOuter()
      twoPublishers()
      subscribeInner()
      _ = fixture.machine.outerFinished()
      if state == .upstreamFinishedResubscribed { subscribeOuter() }
    case .completed:
      subscribeOuter()
      _ = fixture.machine.outerFinished()
    case .completedAwaitingInner, .completedInner:
      subscribeOuter()
      twoPublishers()
      _ = fixture.machine.outerFailed()
      if state == .completedInner { subscribeInner() }
    case .completedInnerFinished:
      subscribeOuter()
      twoPublishers()
      subscribeInner()
      _ = fixture.machine.outerFinished()
      finishInner()
    case .cancelled, .innerFailed:
      subscribeOuter()
      twoPublishers()
      subscribeInner()
      if state == .cancelled {
        _ = fixture.machine.cancelled()
      } else {
        _ = fixture.machine.innerFailed(generation: fixture.newest)
      }
    }
    return fixture
  }

  /// The machine's state in words: its case, whether it holds upstream's subscription
  /// after upstream completed, and where the newest inner publisher stands.
  static func describe(_ state: Machine.State) -> String {
    func describe(_ inner: Machine.Inner) -> String {
      switch inner {
      case .awaitingSubscription: "awaiting"
      case .subscribed: "subscribed"
      case .idle: "idle"
      }
    }
    return switch state {
    case .awaitingUpstream(let inner): "awaitingUpstream, \(describe(inner))"
    case .running(_, let inner): "running, \(describe(inner))"
    case .upstreamFinished(let outer, let inner):
      "upstreamFinished\(outer == nil ? "" : " with upstream"), \(describe(inner))"
    case .completed(let outer, let inner):
      "completed\(outer == nil ? "" : " with upstream"), \(describe(inner))"
    case .ended: "ended"
    }
  }

  /// The state each case starts in, in the words of ``describe(_:)``.
  static func before(_ state: StateCase) -> String {
    switch state {
    case .awaitingUpstream, .awaitingUpstreamInnerFinished: "awaitingUpstream, idle"
    case .awaitingUpstreamAwaitingInner: "awaitingUpstream, awaiting"
    case .awaitingUpstreamInner: "awaitingUpstream, subscribed"
    case .running, .runningInnerFinished: "running, idle"
    case .runningAwaitingInner: "running, awaiting"
    case .runningInner: "running, subscribed"
    case .upstreamFinishedAwaitingInner: "upstreamFinished, awaiting"
    case .upstreamFinishedInner: "upstreamFinished, subscribed"
    case .upstreamFinishedResubscribed: "upstreamFinished with upstream, subscribed"
    case .completed, .completedInnerFinished: "completed, idle"
    case .completedAwaitingInner: "completed, awaiting"
    case .completedInner: "completed, subscribed"
    case .cancelled, .innerFailed: "ended"
    }
  }

  /// Stops the program: an inner event with no inner publisher made.
  static let inconsistency = "stop: Internal inconsistency"
  /// Stops the program, as in Combine: the inner publisher completed before sending its
  /// subscription.
  static let unexpectedCompletion = "stop: Unexpected completion"

  /// What `event` does in `state`, then the state it leaves, in words; a stop for a pair
  /// that stops the program. By event, then state: one switch over the pairs is too large
  /// for the compiler to check.
  static func expected(_ state: StateCase, _ event: Event) -> String {
    let unchanged = before(state)
    switch event {
    // Upstream's subscription: taken when none is held, even after upstream completed.
    case .outerSubscription:
      return switch state {
      case .awaitingUpstream, .awaitingUpstreamInnerFinished: "request unlimited → running, idle"
      case .awaitingUpstreamAwaitingInner: "request unlimited → running, awaiting"
      case .awaitingUpstreamInner: "request unlimited → running, subscribed"
      case .running, .runningAwaitingInner, .runningInner, .runningInnerFinished,
        .upstreamFinishedResubscribed, .cancelled, .innerFailed:
        "cancel it → \(unchanged)"
      case .upstreamFinishedAwaitingInner:
        "request unlimited → upstreamFinished with upstream, awaiting"
      case .upstreamFinishedInner: "request unlimited → upstreamFinished with upstream, subscribed"
      case .completed, .completedInnerFinished: "request unlimited → completed with upstream, idle"
      case .completedAwaitingInner: "request unlimited → completed with upstream, awaiting"
      case .completedInner: "request unlimited → completed with upstream, subscribed"
      }

    // A new inner publisher: it replaces the current one until upstream completes.
    case .publisher:
      return switch state {
      case .awaitingUpstream: "subscribe 1 → awaitingUpstream, awaiting"
      case .awaitingUpstreamAwaitingInner, .awaitingUpstreamInnerFinished:
        "subscribe 3 → awaitingUpstream, awaiting"
      case .awaitingUpstreamInner: "subscribe 3, cancelling the inner → awaitingUpstream, awaiting"
      case .running: "subscribe 1 → running, awaiting"
      case .runningAwaitingInner, .runningInnerFinished: "subscribe 3 → running, awaiting"
      case .runningInner: "subscribe 3, cancelling the inner → running, awaiting"
      case .upstreamFinishedAwaitingInner, .upstreamFinishedInner, .upstreamFinishedResubscribed,
        .completed, .completedAwaitingInner, .completedInner, .completedInnerFinished,
        .cancelled, .innerFailed:
        "ignore → \(unchanged)"
      }

    // Upstream's finish: at once with no inner publisher running or about to; again after
    // a completion, as Combine does.
    case .outerFinish:
      return switch state {
      case .awaitingUpstream, .awaitingUpstreamInnerFinished, .running, .runningInnerFinished,
        .completed, .completedInnerFinished:
        "complete → completed, idle"
      case .awaitingUpstreamAwaitingInner, .runningAwaitingInner, .upstreamFinishedAwaitingInner:
        "ignore → upstreamFinished, awaiting"
      case .awaitingUpstreamInner, .runningInner, .upstreamFinishedInner,
        .upstreamFinishedResubscribed:
        "ignore → upstreamFinished, subscribed"
      case .completedAwaitingInner: "ignore → completed, awaiting"
      case .completedInner: "ignore → completed, subscribed"
      case .cancelled, .innerFailed: "ignore → ended"
      }

    // Upstream's failure: delivered unless the subscription ended, again after a
    // completion; an inner publisher awaiting its subscription stays so.
    case .outerFailure:
      return switch state {
      case .awaitingUpstreamInner, .runningInner, .upstreamFinishedInner,
        .upstreamFinishedResubscribed, .completedInner:
        "complete, cancelling the inner → completed, idle"
      case .awaitingUpstreamAwaitingInner, .runningAwaitingInner, .upstreamFinishedAwaitingInner,
        .completedAwaitingInner:
        "complete → completed, awaiting"
      case .awaitingUpstream, .awaitingUpstreamInnerFinished, .running, .runningInnerFinished,
        .completed, .completedInnerFinished:
        "complete → completed, idle"
      case .cancelled, .innerFailed: "ignore → ended"
      }

    // A request goes to the inner subscription, if one runs.
    case .request:
      return switch state {
      case .awaitingUpstreamInner, .runningInner, .upstreamFinishedInner,
        .upstreamFinishedResubscribed, .completedInner:
        "ask the inner → \(unchanged)"
      case .awaitingUpstream, .awaitingUpstreamAwaitingInner, .awaitingUpstreamInnerFinished,
        .running, .runningAwaitingInner, .runningInnerFinished, .upstreamFinishedAwaitingInner,
        .completed, .completedAwaitingInner, .completedInnerFinished, .cancelled, .innerFailed:
        "hold → \(unchanged)"
      }

    // The subscriber's cancel: whatever is held goes.
    case .cancel:
      return switch state {
      case .runningInner, .upstreamFinishedResubscribed: "cancel the inner and upstream → ended"
      case .awaitingUpstreamInner, .upstreamFinishedInner, .completedInner:
        "cancel the inner → ended"
      case .running, .runningAwaitingInner, .runningInnerFinished: "cancel upstream → ended"
      case .awaitingUpstream, .awaitingUpstreamAwaitingInner, .awaitingUpstreamInnerFinished,
        .upstreamFinishedAwaitingInner, .completed, .completedAwaitingInner,
        .completedInnerFinished, .cancelled, .innerFailed:
        "cancel nothing → ended"
      }

    // The newest inner publisher's subscription: taken unless one is there, even after it
    // finished or upstream failed, as Combine does.
    case .innerSubscription:
      return switch state {
      case .awaitingUpstream, .running, .completed: inconsistency
      case .awaitingUpstreamAwaitingInner, .awaitingUpstreamInnerFinished:
        "request max(2) → awaitingUpstream, subscribed"
      case .runningAwaitingInner, .runningInnerFinished: "request max(2) → running, subscribed"
      case .upstreamFinishedAwaitingInner: "request max(2) → upstreamFinished, subscribed"
      case .completedAwaitingInner, .completedInnerFinished:
        "request max(2) → completed, subscribed"
      case .awaitingUpstreamInner, .runningInner, .upstreamFinishedInner,
        .upstreamFinishedResubscribed, .completedInner, .cancelled, .innerFailed:
        "cancel it → \(unchanged)"
      }

    // The newest inner publisher's value: delivered until the subscription ends, as in
    // Combine, even before its subscription, after its finish or after upstream failed.
    case .innerValue:
      return switch state {
      case .awaitingUpstream, .running, .completed: inconsistency
      case .awaitingUpstreamAwaitingInner, .awaitingUpstreamInner, .awaitingUpstreamInnerFinished,
        .runningAwaitingInner, .runningInner, .runningInnerFinished,
        .upstreamFinishedAwaitingInner, .upstreamFinishedInner, .upstreamFinishedResubscribed,
        .completedAwaitingInner, .completedInner, .completedInnerFinished:
        "deliver → \(unchanged)"
      case .cancelled, .innerFailed: "drop → ended"
      }

    // The newest inner publisher's finish: downstream's once upstream has finished;
    // Combine stops on one before its subscription.
    case .innerFinish:
      return switch state {
      case .awaitingUpstream, .running, .completed: inconsistency
      case .awaitingUpstreamAwaitingInner, .runningAwaitingInner, .upstreamFinishedAwaitingInner,
        .completedAwaitingInner:
        unexpectedCompletion
      case .awaitingUpstreamInner, .awaitingUpstreamInnerFinished: "ignore → awaitingUpstream, idle"
      case .runningInner, .runningInnerFinished: "ignore → running, idle"
      case .upstreamFinishedInner: "complete → completed, idle"
      case .upstreamFinishedResubscribed: "complete → completed with upstream, idle"
      case .completedInner, .completedInnerFinished: "ignore → completed, idle"
      case .cancelled, .innerFailed: "ignore → ended"
      }

    // The newest inner publisher's failure: it ends everything, with upstream, unless a
    // completion went downstream; Combine stops on one before its subscription.
    case .innerFailure:
      return switch state {
      case .awaitingUpstream, .running, .completed: inconsistency
      case .awaitingUpstreamAwaitingInner, .runningAwaitingInner, .upstreamFinishedAwaitingInner,
        .completedAwaitingInner:
        unexpectedCompletion
      case .awaitingUpstreamInner, .awaitingUpstreamInnerFinished, .upstreamFinishedInner:
        "complete → ended"
      case .runningInner, .runningInnerFinished, .upstreamFinishedResubscribed:
        "complete, cancelling upstream → ended"
      case .completedInner, .completedInnerFinished: "ignore → completed, idle"
      case .cancelled, .innerFailed: "ignore → ended"
      }

    // A replaced inner publisher's events count for nothing.
    case .staleSubscription: return stale(state, "cancel it")
    case .staleValue: return stale(state, "drop")
    case .staleFinish, .staleFailure: return stale(state, "ignore")
    }
  }

  /// What an event of a replaced inner publisher does in `state`: `action`, with nothing
  /// changed.
  static func stale(_ state: StateCase, _ action: String) -> String {
    switch state {
    case .awaitingUpstream, .running, .completed: inconsistency
    case .awaitingUpstreamAwaitingInner, .awaitingUpstreamInner, .awaitingUpstreamInnerFinished,
      .runningAwaitingInner, .runningInner, .runningInnerFinished, .upstreamFinishedAwaitingInner,
      .upstreamFinishedInner, .upstreamFinishedResubscribed, .completedAwaitingInner,
      .completedInner, .completedInnerFinished, .cancelled, .innerFailed:
      "\(action) → \(before(state))"
    }
  }

  /// Feeds `event` to `fixture`'s machine, and says what it did and the state it left.
  static func outcome(of event: Event, in fixture: inout Fixture) -> String {
    func named(_ subscription: (any Subscription)?) -> String {
      guard let subscription else { return "nothing" }
      let object = subscription as AnyObject
      if object === fixture.outer { return "upstream" }
      if object === fixture.inner { return "the inner" }
      return "another"
    }
    func completion(_ action: Machine.CompletionAction) -> String {
      switch action {
      case .ignore: "ignore"
      case .complete(nil): "complete"
      case .complete(let other?): "complete, cancelling \(named(other))"
      }
    }
    let action: String
    switch event {
    case .outerSubscription:
      switch fixture.machine.outerSubscribed(RecordingSubscription()) {
      case .requestUnlimited: action = "request unlimited"
      case .cancel: action = "cancel it"
      }
    case .publisher:
      switch fixture.machine.publisherArrived() {
      case .ignore: action = "ignore"
      case .subscribe(let generation, nil): action = "subscribe \(generation)"
      case .subscribe(let generation, let replaced?):
        action = "subscribe \(generation), cancelling \(named(replaced))"
      }
    case .outerFinish: action = completion(fixture.machine.outerFinished())
    case .outerFailure: action = completion(fixture.machine.outerFailed())
    case .request:
      let asked = fixture.machine.demandRequested(.max(1))
      action = asked == nil ? "hold" : "ask \(named(asked))"
    case .cancel:
      switch fixture.machine.cancelled() {
      case .cancel(nil, nil): action = "cancel nothing"
      case .cancel(let inner?, nil): action = "cancel \(named(inner))"
      case .cancel(nil, let outer?): action = "cancel \(named(outer))"
      case .cancel(let inner?, let outer?): action = "cancel \(named(inner)) and \(named(outer))"
      }
    case .innerSubscription, .staleSubscription:
      let generation = event == .innerSubscription ? fixture.newest : fixture.stale
      switch fixture.machine.innerSubscribed(RecordingSubscription(), generation: generation) {
      case .request(let demand): action = "request \(demand)"
      case .cancel: action = "cancel it"
      }
    case .innerValue, .staleValue:
      let generation = event == .innerValue ? fixture.newest : fixture.stale
      switch fixture.machine.innerValueArrived(generation: generation) {
      case .drop: action = "drop"
      case .deliver: action = "deliver"
      }
    case .innerFinish, .staleFinish:
      let generation = event == .innerFinish ? fixture.newest : fixture.stale
      action = completion(fixture.machine.innerFinished(generation: generation))
    case .innerFailure, .staleFailure:
      let generation = event == .innerFailure ? fixture.newest : fixture.stale
      action = completion(fixture.machine.innerFailed(generation: generation))
    }
    return "\(action) → \(describe(fixture.machine.state))"
  }

  @Test(arguments: StateCase.allCases, Event.allCases)
  func switchToLatestAnswersEveryEventInEveryState(_ state: StateCase, _ event: Event) async {
    let expected = Self.expected(state, event)
    guard expected.hasPrefix("stop: ") else {
      var fixture = Self.fixture(in: state)
      #expect(Self.outcome(of: event, in: &fixture) == expected, "\(state) + \(event)")
      return
    }
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent], "\(state) + \(event)"
    ) { [state, event] in
      var fixture = SwitchToLatestStateMachineTableTests.fixture(in: state)
      _ = SwitchToLatestStateMachineTableTests.outcome(of: event, in: &fixture)
    }
    let message = String(expected.dropFirst("stop: ".count))
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains(message), "\(state) + \(event) stops with \(message)")
  }
}
