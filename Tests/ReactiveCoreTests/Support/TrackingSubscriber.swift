import ReactiveCore

/// One event a ``TrackingSubscriber`` saw.
enum Event<Value: Equatable, Failure: Error & Equatable>: Equatable {
  case subscription(String)
  case value(Value)
  case completion(Subscribers.Completion<Failure>)
}

/// A subscriber that records every event and requests demand as told, for asserting
/// exact event histories.
final class TrackingSubscriber<Value: Equatable, Failure: Error & Equatable>: Subscriber,
  @unchecked Sendable
{
  typealias Input = Value

  private let state = LockedBox<([Event<Value, Failure>], (any Subscription)?)>(([], nil))
  private let initialDemand: Subscribers.Demand?
  private let demandPerValue: Subscribers.Demand
  private let onValue: ((Value) -> Void)?

  /// - Parameters:
  ///   - initialDemand: requested on subscription (nil requests nothing).
  ///   - demandPerValue: returned from each value.
  init(
    initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none,
    onValue: ((Value) -> Void)? = nil
  ) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    self.onValue = onValue
    OpenSubscriptions.register(self)
  }

  var events: [Event<Value, Failure>] { state.withLock { $0.0 } }
  var values: [Value] {
    events.compactMap { if case .value(let value) = $0 { value } else { nil } }
  }
  var completions: [Subscribers.Completion<Failure>] {
    events.compactMap { if case .completion(let completion) = $0 { completion } else { nil } }
  }
  var subscription: (any Subscription)? { state.withLock { $0.1 } }

  func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
  /// Cancels the subscription and lets go of it, as Combine's `Sink` does: a subscription
  /// may keep its subscriber (Combine's operators do), so holding it on would be a cycle.
  func cancel() { releaseSubscription() }

  /// Cancels the subscription and lets go of it; ``OpenSubscriptions`` calls it for every
  /// tracker still alive when the test process exits.
  func releaseSubscription() {
    let held = state.withLock { state -> (any Subscription)? in
      defer { state.1 = nil }
      return state.1
    }
    held?.cancel()
  }

  func receive(subscription: any Subscription) {
    state.withLock {
      $0.0.append(.subscription(String(describing: subscription)))
      $0.1 = subscription
    }
    if let initialDemand { subscription.request(initialDemand) }
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    state.withLock { $0.0.append(.value(input)) }
    onValue?(input)
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    state.withLock { $0.0.append(.completion(completion)) }
  }
}

/// An error for tests.
enum TestError: Error, Equatable {
  case oops
  case other
}

/// Something to hold weakly in leak tests.
final class Token: @unchecked Sendable {}

extension TrackingSubscriber: ReleasesAtExit {
  func releaseAtExit() { releaseSubscription() }
}
