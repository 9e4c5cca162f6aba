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
private final class MaterializeSubscription<Upstream: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Event<Upstream.Output, Upstream.Failure>, Downstream.Failure == Never {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  @exclusivity(unchecked)
  private var upstream: (any Subscription)?
  @exclusivity(unchecked)
  private var isCancelled = false
  @exclusivity(unchecked)
  private var pendingDemand = Subscribers.Demand.none
  private let buffer: DemandBuffer<Downstream>

  init(downstream: Downstream) { buffer = DemandBuffer(downstream) }

  func receive(subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard upstream == nil, !isCancelled else { return nil }
      upstream = subscription
      return pendingDemand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    buffer.push(.value(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock { upstream = nil }
    switch completion {
    case .finished: buffer.push(.finished)
    case .failure(let error): buffer.push(.failure(error))
    }
    buffer.complete(.finished)
  }

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      if self.upstream == nil { pendingDemand += demand }
      return self.upstream
    }
    buffer.addDemand(demand)
    upstream?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      isCancelled = true
      defer { self.upstream = nil }
      return self.upstream
    }
    buffer.release()
    upstream?.cancel()
  }

  var description: String { "Materialize" }
}
