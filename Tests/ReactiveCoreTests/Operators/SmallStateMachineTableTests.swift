import Testing

@testable import ReactiveCore

/// `multicast`'s, `Future`'s and a `Future` subscription's machines: every event in every
/// state.
@Suite struct SmallStateMachineTableTests {
  // MARK: multicast

  enum MulticastCase: String, CaseIterable, Sendable { case ready, subscribed, terminal }
  enum MulticastEvent: String, CaseIterable, Sendable { case subscription, end }

  static func multicast(in state: MulticastCase) -> MulticastState<String> {
    var machine = MulticastState<String>.ready("downstream")
    switch state {
    case .ready: break
    case .subscribed: _ = machine.subscribed(RecordingSubscription())
    case .terminal:
      _ = machine.subscribed(RecordingSubscription())
      _ = machine.ended()
    }
    return machine
  }

  static func multicastOutcome(_ state: MulticastCase, _ event: MulticastEvent) -> String {
    switch (state, event) {
    case (.ready, .subscription): "hand it to downstream, then subscribed"
    case (.subscribed, .subscription), (.terminal, .subscription): "cancel it"
    case (.subscribed, .end): "end downstream and the first subscription, then terminal"
    case (.ready, .end), (.terminal, .end): "ignore"
    }
  }

  @Test(arguments: MulticastCase.allCases, MulticastEvent.allCases)
  func multicastAnswersEveryEventInEveryState(_ state: MulticastCase, _ event: MulticastEvent) {
    var machine = Self.multicast(in: state)
    let outcome: String
    switch event {
    case .subscription:
      switch machine.subscribed(RecordingSubscription()) {
      case .handTo(let downstream):
        let after = if case .subscribed = machine { "subscribed" } else { "?" }
        outcome = downstream == "downstream" ? "hand it to downstream, then \(after)" : "?"
      case .cancel: outcome = "cancel it"
      }
    case .end:
      switch machine.ended() {
      case .ignore: outcome = "ignore"
      case .end(let downstream, _):
        let after = if case .terminal = machine { "terminal" } else { "?" }
        outcome =
          downstream == "downstream"
          ? "end downstream and the first subscription, then \(after)" : "?"
      }
    }
    #expect(outcome == Self.multicastOutcome(state, event), "\(state) + \(event)")
  }

  // MARK: Future

  enum FutureCase: String, CaseIterable, Sendable { case pending, fulfilled }
  enum FutureEvent: String, CaseIterable, Sendable { case fulfill, subscribe, remove }

  static func futureOutcome(_ state: FutureCase, _ event: FutureEvent) -> String {
    switch (state, event) {
    case (.pending, .fulfill): "notify 1 waiting"
    case (.fulfilled, .fulfill): "ignore"
    case (.pending, .subscribe): "wait"
    case (.fulfilled, .subscribe): "fulfill with 1"
    case (.pending, .remove): "0 waiting"
    case (.fulfilled, .remove): "nothing waits"
    }
  }

  @Test(arguments: FutureCase.allCases, FutureEvent.allCases)
  func futureAnswersEveryEventInEveryState(_ state: FutureCase, _ event: FutureEvent) {
    var machine = FutureStateMachine<Int, TestError>()
    let waiter = FutureStateMachineTests.Waiter()
    _ = machine.subscribed(waiter)
    if state == .fulfilled { _ = machine.fulfill(.success(1)) }
    let outcome: String
    switch event {
    case .fulfill:
      switch machine.fulfill(.success(2)) {
      case .ignore: outcome = "ignore"
      case .notify(let waiting): outcome = "notify \(waiting.count) waiting"
      }
    case .subscribe:
      switch machine.subscribed(FutureStateMachineTests.Waiter()) {
      case .wait: outcome = "wait"
      case .fulfill(let result): outcome = "fulfill with \((try? result.get()) ?? -1)"
      }
    case .remove:
      machine.remove(waiter)
      switch machine.fulfill(.success(3)) {
      case .ignore: outcome = "nothing waits"
      case .notify(let waiting): outcome = "\(waiting.count) waiting"
      }
    }
    #expect(outcome == Self.futureOutcome(state, event), "\(state) + \(event)")
  }

  // MARK: a Future's subscription

  enum SubscriptionCase: String, CaseIterable, Sendable {
    case waiting, withDemand, withValue, done
  }

  enum SubscriptionEvent: String, CaseIterable, Sendable {
    case value, failure, demand, cancel
  }

  typealias Downstream = Subscribers.Sink<Int, TestError>

  static func subscription(in state: SubscriptionCase)
    -> FutureSubscriptionStateMachine<Downstream>
  {
    var machine = FutureSubscriptionStateMachine(
      parent: Future<Int, TestError> { _ in },
      downstream: Downstream(receiveCompletion: { _ in }) { _ in })
    switch state {
    case .waiting: break
    case .withDemand: _ = machine.demandArrived()
    case .withValue: _ = machine.resultArrived(.success(1))
    case .done: _ = machine.cancelled()
    }
    return machine
  }

  static func subscriptionOutcome(_ state: SubscriptionCase, _ event: SubscriptionEvent)
    -> String
  {
    switch (state, event) {
    case (.waiting, .value): "wait"
    case (.withDemand, .value): "deliver 2"
    case (.withValue, .value): "wait"
    case (.done, .value), (.done, .failure), (.done, .demand): "wait"
    case (.waiting, .failure), (.withDemand, .failure), (.withValue, .failure):
      "deliver the failure"
    case (.waiting, .demand), (.withDemand, .demand): "wait"
    case (.withValue, .demand): "deliver 1"
    case (.waiting, .cancel), (.withDemand, .cancel), (.withValue, .cancel):
      "release downstream, leave the future"
    case (.done, .cancel): "release nothing, leave nothing"
    }
  }

  @Test(arguments: SubscriptionCase.allCases, SubscriptionEvent.allCases)
  func aFutureSubscriptionAnswersEveryEventInEveryState(
    _ state: SubscriptionCase, _ event: SubscriptionEvent
  ) {
    var machine = Self.subscription(in: state)
    let action: FutureSubscriptionStateMachine<Downstream>.DeliveryAction
    switch event {
    case .value: action = machine.resultArrived(.success(2))
    case .failure: action = machine.resultArrived(.failure(.oops))
    case .demand: action = machine.demandArrived()
    case .cancel:
      guard case .cancel(let downstream, let parent) = machine.cancelled() else { return }
      let outcome =
        downstream == nil && parent == nil
        ? "release nothing, leave nothing"
        : downstream != nil && parent != nil ? "release downstream, leave the future" : "?"
      #expect(outcome == Self.subscriptionOutcome(state, event), "\(state) + \(event)")
      return
    }
    let outcome: String =
      switch action {
      case .wait: "wait"
      case .deliver(.success(let value), _): "deliver \(value)"
      case .deliver(.failure, _): "deliver the failure"
      }
    #expect(outcome == Self.subscriptionOutcome(state, event), "\(state) + \(event)")
  }
}
