import ReactiveCore

/// A subscriber that records what it receives and asks for demand as told.
final class Recorder<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  private let box = LockedBox<([Input], [Subscribers.Completion<Failure>], (any Subscription)?)>(
    ([], [], nil))
  private let initialDemand: Subscribers.Demand?
  private let demandPerValue: Subscribers.Demand

  init(initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none)
  {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    OpenRecorders.register(self)
  }

  var values: [Input] { box.withLock { $0.0 } }
  var completions: [Subscribers.Completion<Failure>] { box.withLock { $0.1 } }
  var isFinished: Bool {
    completions.contains { if case .finished = $0 { true } else { false } }
  }

  func receive(subscription: any Subscription) {
    box.withLock { $0.2 = subscription }
    if let initialDemand { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    box.withLock { $0.0.append(input) }
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    box.withLock { $0.1.append(completion) }
  }

  func request(_ demand: Subscribers.Demand) { box.withLock { $0.2 }?.request(demand) }

  /// Cancels and lets go of the subscription.
  func cancel() {
    let subscription = box.withLock { state -> (any Subscription)? in
      defer { state.2 = nil }
      return state.2
    }
    subscription?.cancel()
  }
}

/// An error for tests.
enum TestError: Error, Equatable {
  case oops
  case again
}

/// An object whose lifetime tests watch through weak references.
final class Token: @unchecked Sendable {}

/// A subscription that records requests and cancels.
final class RecordingSubscription: Subscription, @unchecked Sendable {
  private let box = LockedBox<[String]>([])
  var history: [String] { box.withLock { $0 } }
  func request(_ demand: Subscribers.Demand) { box.withLock { $0.append("request \(demand)") } }
  func cancel() { box.withLock { $0.append("cancel") } }
}
