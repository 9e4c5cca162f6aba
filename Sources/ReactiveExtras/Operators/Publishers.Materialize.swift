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
/// Like `dropFirst`, it keeps the looser shape: the completion lets go of the upstream
/// without ending its `Lifecycle` (only a cancel ends it), so a subscription arriving
/// after the completion is taken rather than cancelled.
private final class MaterializeSubscription<Upstream: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Event<Upstream.Output, Upstream.Failure>, Downstream.Failure == Never {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// Where the operator stands with its upstream (ReactiveCore's one lifecycle), carrying
  /// the demand asked for before the subscription arrived, behind its lock.
  private let state = LockedBox(Lifecycle(Subscribers.Demand.none))
  private let buffer: DemandBuffer<Downstream, Void>

  init(downstream: Downstream) { buffer = DemandBuffer(downstream) }

  func receive(subscription: any Subscription) {
    let demand = state.withLock { state -> Subscribers.Demand? in
      guard state.adopt(subscription) else { return nil }
      return state.machine
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    buffer.push(.value(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    _ = state.withLock { $0.release() }
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
      if state.subscription == nil { state.machine += demand }
      return state.subscription
    }
    buffer.addDemand(demand)
    upstream?.request(demand)
  }

  func cancel() {
    let upstream = state.withLock { $0.end() }
    buffer.release()
    upstream?.cancel()
  }

  var description: String { "Materialize" }
}
