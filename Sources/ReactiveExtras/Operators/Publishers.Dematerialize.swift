import ReactiveCore

extension Publisher where Output: EventConvertible, Failure == Never {
  /// Turns a publisher of ``Event``s back into the events they stand for: values pass on,
  /// a `.failure` or `.finished` event ends the stream (and cancels the upstream).
  ///
  ///     let cancellable = [Event<Int, Never>.value(1), .finished].publisher
  ///         .dematerialize().sink { print($0) }
  ///     // Prints "1"
  ///
  /// - Returns: A publisher of the events' values that fails with their failure.
  public func dematerialize() -> Publishers.Dematerialize<Self> {
    Publishers.Dematerialize(upstream: self)
  }

  /// The values among the events, ignoring failures and the finish.
  ///
  /// - Returns: A publisher of the `.value` events' values.
  public func values() -> AnyPublisher<Output.Output, Never> {
    compactMap { if case .value(let value) = $0.event { value } else { nil } }
      .eraseToAnyPublisher()
  }

  /// The failures among the events, ignoring values and the finish.
  ///
  /// - Returns: A publisher of the `.failure` events' errors.
  public func failures() -> AnyPublisher<Output.Failure, Never> {
    compactMap { if case .failure(let error) = $0.event { error } else { nil } }
      .eraseToAnyPublisher()
  }
}

extension Publishers {
  /// A publisher that turns its upstream's ``Event`` values back into events.
  public struct Dematerialize<Upstream: Publisher>: Publisher
  where Upstream.Output: EventConvertible, Upstream.Failure == Never {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Output.Failure
    /// The publisher of events.
    public let upstream: Upstream

    /// Creates a publisher of the events the upstream's values stand for.
    ///
    /// - Parameter upstream: The publisher of events.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(DematerializeSubscription<Upstream, S>(downstream: subscriber))
    }
  }
}

/// Passes `.value` events on as values and ends at the first `.failure` or `.finished`.
private final class DematerializeSubscription<Upstream: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where
  Upstream.Output: EventConvertible, Upstream.Failure == Never,
  Downstream.Input == Upstream.Output.Output, Downstream.Failure == Upstream.Output.Failure
{
  typealias Input = Upstream.Output
  typealias Failure = Never

  /// Where the operator stands with its upstream (ReactiveCore's one lifecycle), behind
  /// its lock.
  private let state = LockedBox(Lifecycle())
  private let downstream: Downstream

  init(downstream: Downstream) { self.downstream = downstream }

  func receive(subscription: any Subscription) {
    let accepted = state.withLock { $0.adopt(subscription) }
    guard accepted else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    switch input.event {
    case .value(let value):
      guard !state.withLock({ $0.hasEnded }) else { return .none }
      return downstream.receive(value)
    case .failure(let error):
      end(.failure(error))
    case .finished:
      end(.finished)
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    let wasLive = state.withLock { state -> Bool in
      defer { _ = state.end() }
      return !state.hasEnded
    }
    if wasLive { downstream.receive(completion: .finished) }
  }

  /// Ends the stream with the completion an event stood for, cancelling the upstream.
  private func end(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let ending = state.withLock { state -> Ending in
      guard !state.hasEnded else { return .alreadyEnded }
      return .ends(cancelling: state.end())
    }
    guard case .ends(let upstream) = ending else { return }
    upstream?.cancel()
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing (and is not passed on to an upstream that
    // might trap on it), as in CombineExt's demand buffer.
    guard demand > 0 else { return }
    state.withLock { $0.subscription }?.request(demand)
  }

  func cancel() {
    state.withLock { $0.end() }?.cancel()
  }

  var description: String { "Dematerialize" }
}
