extension Publisher {
  /// Handles errors from an upstream publisher by replacing it with another publisher.
  ///
  ///     let cancellable = Fail<Int, MyError>(error: .broken)
  ///         .catch { _ in Just(0) }
  ///         .sink { print($0) }
  ///     // Prints "0"
  ///
  /// Outstanding demand carries over to the replacement publisher.
  ///
  /// - Parameter handler: A closure that accepts the upstream failure as input and
  ///   returns a publisher to replace the upstream publisher.
  /// - Returns: A publisher that handles errors from an upstream publisher by replacing
  ///   the failed publisher with another publisher.
  public func `catch`<P: Publisher>(
    _ handler: @escaping (Failure) -> P
  ) -> Publishers.Catch<Self, P> where Output == P.Output {
    Publishers.Catch(upstream: self, handler: handler)
  }

  /// Handles errors from an upstream publisher by either replacing it with another
  /// publisher or throwing a new error.
  ///
  /// - Parameter handler: A throwing closure that accepts the upstream failure as input.
  ///   It returns a publisher to replace the upstream publisher, or throws to fail with a
  ///   new error.
  /// - Returns: A publisher that handles errors from an upstream publisher.
  public func tryCatch<P: Publisher>(
    _ handler: @escaping (Failure) throws -> P
  ) -> Publishers.TryCatch<Self, P> where Output == P.Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }
}

extension Publishers {
  /// A publisher that handles errors from an upstream publisher by replacing the failed
  /// publisher with another publisher.
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = NewPublisher.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A closure that accepts the upstream failure as input and returns a publisher to
    /// replace the upstream publisher.
    public let handler: (Upstream.Failure) -> NewPublisher

    /// Creates a publisher that handles errors from an upstream publisher by replacing the
    /// failed publisher with another publisher.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    /// Attaches the subscriber; on failure it switches to the handler's publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let handler = handler
      upstream.receive(
        subscriber:
          CatchSubscription<Upstream, NewPublisher, S>(name: "Catch", downstream: subscriber) {
            .success(handler($0))
          })
    }
  }

  /// A publisher that handles errors from an upstream publisher by replacing the failed
  /// publisher with another publisher or producing a new error.
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A throwing closure that returns a replacement publisher or throws a new error.
    public let handler: (Upstream.Failure) throws -> NewPublisher

    /// Creates a publisher that replaces a failed upstream or throws a new error.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    /// Attaches the subscriber; on failure it switches publishers or fails with the thrown
    /// error.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let handler = handler
      upstream.receive(
        subscriber:
          CatchSubscription<Upstream, Publishers.MapError<NewPublisher, any Error>, S>(
            name: "TryCatch", downstream: subscriber
          ) { error in
            Result { try handler(error).mapError { $0 as any Error } }
          })
    }
  }
}

/// Subscribes to the upstream, and on its failure to a replacement publisher, carrying
/// the outstanding downstream demand across.
final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
  Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output,
  Downstream.Failure == NewPublisher.Failure
{
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards `status`, `downstream`, `demand` and `isReplaced`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var isReplaced = false
  private let handler: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
  let description: String

  init(
    name: String, downstream: Downstream,
    handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
  ) {
    description = name
    self.downstream = downstream
    self.handler = handler
  }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    target.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let target = lock.withLock({ status.subscription == nil ? nil : downstream }) else {
      return .none
    }
    let more = target.receive(input)
    lock.withLock { demand = demand - 1 + more }
    return more
  }

  func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    guard case .failure(let error) = completion else {
      return finish(.finished)
    }
    let isFirstFailure = lock.withLock { () -> Bool in
      guard case .subscribed = status, !isReplaced else { return false }
      isReplaced = true
      status = .awaitingSubscription
      return true
    }
    guard isFirstFailure else { return }
    switch handler(error) {
    case .success(let replacement): replacement.receive(subscriber: Replacement(parent: self))
    case .failure(let newError): finish(.failure(newError))
    }
  }

  fileprivate func replacementSubscribed(_ subscription: any Subscription) {
    let pending = lock.withLock { () -> Subscribers.Demand? in
      guard case .awaitingSubscription = status, downstream != nil else { return nil }
      status = .subscribed(subscription)
      return demand
    }
    guard let pending else { return subscription.cancel() }
    if pending > 0 { subscription.request(pending) }
  }

  fileprivate func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let target = lock.withLock { () -> Downstream? in
      status = .terminal
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func request(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    let upstream = lock.withLock { () -> (any Subscription)? in
      demand += additional
      return status.subscription
    }
    upstream?.request(additional)
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        downstream = nil
      }
      return (status.subscription, downstream)
    }
    taken.0?.cancel()
  }

  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }

  /// Subscribes to the replacement publisher on behalf of the parent.
  private struct Replacement: Subscriber {
    let parent: CatchSubscription
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { parent.replacementSubscribed(subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input) }
    func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
      parent.finish(completion)
    }
  }
}
