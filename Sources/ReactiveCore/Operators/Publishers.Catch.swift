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
          CatchSubscription<Upstream, NewPublisher, S>(
            name: "Catch", downstream: subscriber, convertFailure: { $0 }
          ) { .success(handler($0)) }.upstreamSubscriber)
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
          CatchSubscription<Upstream, NewPublisher, S>(
            name: "TryCatch", downstream: subscriber, convertFailure: { $0 }
          ) { error in Result { try handler(error) } }.upstreamSubscriber)
    }
  }
}

/// Subscribes to the upstream, and on its failure to a replacement publisher, carrying
/// the outstanding downstream demand across. It is the downstream's one subscription
/// throughout, and it keeps its downstream for its whole life, as Combine's does.
///
/// Its states follow Combine's: waiting for the upstream subscription, subscribed
/// upstream ("pre"), waiting for the replacement's subscription, subscribed to the
/// replacement ("post"), and ended. Combine traps on what only a broken upstream does
/// (a value nobody asked for, a failure before the subscription, a second failure), and
/// so does this.
///
/// The handler is let go once it can no longer run: when it runs (at the upstream's
/// failure), or when upstream finishes or the subscription is cancelled, as Combine does,
/// so that what it captures is released even while the subscriber keeps this subscription.
///
/// - Note: Thread-safe. The lock guards ``State``; no upstream, downstream or handler code
///   runs while it is held, and the handler is released only after it is.
final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
  Guarded<CatchSubscription<Upstream, NewPublisher, Downstream>.State>, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
  /// Where the operator stands, in Combine's states.
  enum Phase {
    /// Waiting for the upstream subscription.
    case pendingPre
    /// Subscribed upstream.
    case pre(any Subscription)
    /// Upstream failed; waiting for the replacement's subscription.
    case pendingPost
    /// Subscribed to the replacement.
    case post(any Subscription)
    /// Completed or cancelled.
    case ended
  }

  /// Everything about the operator that changes; guarded by the lock.
  struct State {
    /// Where the operator stands.
    var phase = Phase.pendingPre
    /// What downstream asked for and has not received yet.
    var demand = Subscribers.Demand.none
    /// Makes the replacement from the upstream's failure; `nil` once it has run or can no
    /// longer run (upstream finished, or a cancel).
    var handler: ((Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>)?
  }

  private let downstream: Downstream
  /// The replacement's failure as the downstream's (the same type for `catch`, erased to
  /// `any Error` for `tryCatch`).
  private let convertFailure: (NewPublisher.Failure) -> Downstream.Failure
  let description: String

  init(
    name: String, downstream: Downstream,
    convertFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure,
    handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
  ) {
    description = name
    self.downstream = downstream
    self.convertFailure = convertFailure
    super.init(state: State(handler: handler))
  }

  /// The subscriber attached to the upstream.
  var upstreamSubscriber: UpstreamSide { UpstreamSide(owner: self) }

  // MARK: Upstream ("pre")

  fileprivate func receivePre(subscription: any Subscription) {
    lock.lock()
    guard case .pendingPre = stateAssumingLocked.phase else {
      lock.unlock()
      subscription.cancel()
      return
    }
    stateAssumingLocked.phase = .pre(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  fileprivate func receivePre(_ input: Upstream.Output) -> Subscribers.Demand {
    lock.lock()
    // Combine traps on a value nobody asked for (its demand would go negative).
    precondition(
      stateAssumingLocked.demand > .none, "API Violation: received a value without demand")
    stateAssumingLocked.demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    withLock { $0.demand += more }
    return more
  }

  fileprivate func receivePre(completion: Subscribers.Completion<Upstream.Failure>) {
    lock.lock()
    switch (completion, stateAssumingLocked.phase) {
    case (.finished, .pre):
      stateAssumingLocked.phase = .ended
      let released = stateAssumingLocked.handler.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      downstream.receive(completion: .finished)
    case (.finished, _), (.failure, .ended):
      lock.unlock()
    case (.failure(let failure), .pre):
      stateAssumingLocked.phase = .pendingPost
      // Only one failure comes, so this is the handler's one run: it goes with it.
      let handler = stateAssumingLocked.handler.take()
      lock.unlock()
      switch handler!(failure) {
      case .success(let replacement):
        replacement.subscribe(DownstreamSide(owner: self))
      case .failure(let thrown):
        withLock { $0.phase = .ended }
        downstream.receive(completion: .failure(thrown))
      }
    case (.failure, .pendingPre), (.failure, .pendingPost), (.failure, .post):
      lock.unlock()
      preconditionFailure("Unexpected state: received completion but do not have subscription")
    }
  }

  // MARK: Replacement ("post")

  fileprivate func receivePost(subscription: any Subscription) {
    lock.lock()
    guard case .pendingPost = stateAssumingLocked.phase else {
      lock.unlock()
      subscription.cancel()
      return
    }
    stateAssumingLocked.phase = .post(subscription)
    let demand = stateAssumingLocked.demand
    lock.unlock()
    if demand > .none { subscription.request(demand) }
  }

  fileprivate func receivePost(_ input: NewPublisher.Output) -> Subscribers.Demand {
    downstream.receive(input)
  }

  fileprivate func receivePost(completion: Subscribers.Completion<NewPublisher.Failure>) {
    lock.lock()
    guard case .post = stateAssumingLocked.phase else {
      lock.unlock()
      return
    }
    stateAssumingLocked.phase = .ended
    lock.unlock()
    downstream.receive(completion: completion.mapError(convertFailure))
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    switch stateAssumingLocked.phase {
    case .pendingPre:
      lock.unlock()
      preconditionFailure("Unexpected state: request before subscription sent")
    case .pre(let subscription):
      stateAssumingLocked.demand += demand
      lock.unlock()
      subscription.request(demand)
    case .pendingPost:
      stateAssumingLocked.demand += demand
      lock.unlock()
    case .post(let subscription):
      lock.unlock()
      subscription.request(demand)
    case .ended:
      lock.unlock()
    }
  }

  func cancel() {
    lock.lock()
    switch stateAssumingLocked.phase {
    case .pre(let subscription), .post(let subscription):
      stateAssumingLocked.phase = .ended
      let released = stateAssumingLocked.handler.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      subscription.cancel()
    case .pendingPre, .pendingPost, .ended:
      lock.unlock()
    }
  }

  var customMirror: Mirror {
    let demand = withLock { $0.demand }
    return Mirror(
      self, children: ["downstream": downstream, "demand": demand],
      ancestorRepresentation: .suppressed)
  }

  var playgroundDescription: Any { description }

  /// The subscriber attached to the upstream; it describes itself as the operator.
  struct UpstreamSide: OwnerForwardingSubscriber {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    /// The subscription this side forwards to, and whose identity it shows.
    let owner: CatchSubscription

    func receive(subscription: any Subscription) { owner.receivePre(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { owner.receivePre(input) }
    func receive(completion: Subscribers.Completion<Failure>) {
      owner.receivePre(completion: completion)
    }
  }

  /// The subscriber attached to the replacement publisher.
  struct DownstreamSide: OwnerForwardingSubscriber {
    typealias Input = NewPublisher.Output
    typealias Failure = NewPublisher.Failure

    /// The subscription this side forwards to, and whose identity it shows.
    let owner: CatchSubscription

    func receive(subscription: any Subscription) { owner.receivePost(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { owner.receivePost(input) }
    func receive(completion: Subscribers.Completion<Failure>) {
      owner.receivePost(completion: completion)
    }
  }
}
