import Foundation
import ReactiveCore
import ReactiveFoundationNetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A subscriber that records what a data task publisher delivers, asks for
/// `initialDemand` on subscription (none means it waits for `request(_:)`), and can be
/// waited on from a test.
final class DataTaskRecorder: Subscriber, Sendable {
  typealias Input = URLSession.DataTaskPublisher.Output
  typealias Failure = URLError

  /// One delivery.
  enum Event: Sendable {
    case value(data: Data, response: URLResponse)
    case finished
    case failure(URLError)
  }

  private struct State {
    var subscription: (any Subscription)?
    var events: [Event] = []
  }

  // ReactiveCore's lock box (package access): a `Mutex` would not hold the subscription,
  // which is not `Sendable`.
  private let state = LockedBox(State())
  private let initialDemand: Subscribers.Demand

  init(initialDemand: Subscribers.Demand = .unlimited) { self.initialDemand = initialDemand }

  func receive(subscription: any Subscription) {
    state.withLock { $0.subscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    state.withLock { $0.events.append(.value(data: input.data, response: input.response)) }
    return .none
  }

  func receive(completion: Subscribers.Completion<URLError>) {
    state.withLock {
      $0.subscription = nil
      switch completion {
      case .finished: $0.events.append(.finished)
      case .failure(let error): $0.events.append(.failure(error))
      }
    }
  }

  /// Asks the subscription for more values.
  func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.subscription }?.request(demand)
  }

  /// Cancels the subscription and lets go of it.
  func cancel() {
    state.withLock { state -> (any Subscription)? in
      defer { state.subscription = nil }
      return state.subscription
    }?.cancel()
  }

  /// Everything delivered so far.
  var events: [Event] { state.withLock { $0.events } }

  /// Waits for a completion; false if none came within `timeout` seconds (a guard
  /// against a hang, never a measurement).
  func waitForCompletion(timeout: Double = 60) async -> Bool {
    await eventually(timeout: timeout) { self.events.contains(where: \.isCompletion) }
  }
}

extension DataTaskRecorder.Event {
  var isCompletion: Bool {
    if case .value = self { return false }
    return true
  }

  /// The body, if this is a value.
  var data: Data? {
    if case .value(let data, _) = self { return data }
    return nil
  }

  /// The HTTP status, if this is a value with an HTTP response.
  var statusCode: Int? {
    if case .value(_, let response) = self { return (response as? HTTPURLResponse)?.statusCode }
    return nil
  }

  var isFinished: Bool {
    if case .finished = self { return true }
    return false
  }

  /// The error, if this is a failure.
  var urlError: URLError? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
