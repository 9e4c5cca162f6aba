import ReactiveCore

extension Publisher {
  /// Turns every event of this publisher — values, the failure, the finish — into a value
  /// of a publisher that never fails.
  ///
  ///     let cancellable = Fail<Int, MyError>(error: .oops).materialize().sink { print($0) }
  ///     // Prints "failure(oops)"
  ///
  /// - Returns: A publisher of ``Event``s that finishes after the event that ended this
  ///   publisher.
  public func materialize() -> Publishers.Materialize<Self> {
    Publishers.Materialize(upstream: self)
  }
}

extension Publishers {
  /// A publisher that sends its upstream's events as values (``Event``), then finishes.
  public struct Materialize<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Event<Upstream.Output, Upstream.Failure>
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never
    /// The publisher whose events become values.
    public let upstream: Upstream

    /// Creates a publisher of the upstream's events.
    ///
    /// - Parameter upstream: The publisher whose events become values.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      let subscription = MaterializeSubscription<Upstream, S>(downstream: subscriber)
      subscriber.receive(subscription: subscription)
      upstream.subscribe(subscription)
    }
  }
}

/// Passes values on as `.value` events; the completion becomes a last event, held until
/// the subscriber has demand for it (the `DemandBuffer` does the waiting).
///
/// Not on ReactiveCore's `Lifecycle`: like `dropFirst`, it keeps the looser shape of an
/// optional upstream that the completion clears (only a cancel ends it), so a
/// subscription arriving after the completion is taken rather than cancelled.
private final class MaterializeSubscription<Upstream: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Event<Upstream.Output, Upstream.Failure>, Downstream.Failure == Never {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// Everything about the operator that changes; guarded by its box's lock.
  private struct State {
    /// The upstream subscription, once it arrives and until the stream ends.
    var upstream: (any Subscription)?
    /// Whether downstream cancelled.
    var isCancelled = false
    /// Demand asked for before the subscription arrived.
    var pendingDemand = Subscribers.Demand.none
  }

  /// The operator's state behind its lock.
  private let state = LockedBox(State())
  private let buffer: DemandBuffer<Downstream, Void>

  init(downstream: Downstream) { buffer = DemandBuffer(downstream) }

  func receive(subscription: any Subscription) {
    let demand = state.withLock { state -> Subscribers.Demand? in
      guard state.upstream == nil, !state.isCancelled else { return nil }
      state.upstream = subscription
      return state.pendingDemand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    buffer.push(.value(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    state.withLock { $0.upstream = nil }
    switch completion {
    case .finished: buffer.push(.finished)
    case .failure(let error): buffer.push(.failure(error))
    }
    buffer.complete(.finished)
  }

  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing (and is not passed on to an upstream that
    // might trap on it), as in CombineExt's demand buffer.
    guard demand > 0 else { return }
    let upstream = state.withLock { state -> (any Subscription)? in
      if state.upstream == nil { state.pendingDemand += demand }
      return state.upstream
    }
    buffer.addDemand(demand)
    upstream?.request(demand)
  }

  func cancel() {
    let upstream = state.withLock { state -> (any Subscription)? in
      state.isCancelled = true
      defer { state.upstream = nil }
      return state.upstream
    }
    buffer.release()
    upstream?.cancel()
  }

  var description: String { "Materialize" }
}
