extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a
  /// second publisher.
  ///
  ///     let cancellable = values.drop(untilOutputFrom: start).sink { print($0) }
  ///
  /// - Parameter publisher: A publisher to monitor for its first emitted element.
  /// - Returns: A publisher that drops elements from the upstream publisher until the
  ///   `other` publisher produces a value.
  public func drop<P: Publisher>(
    untilOutputFrom publisher: P
  ) -> Publishers.DropUntilOutput<Self, P> where Failure == P.Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that ignores elements from the upstream publisher until it receives an
  /// element from second publisher.
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A publisher to monitor for its first emitted element.
    public let other: Other

    /// Creates a publisher that ignores elements from the upstream publisher until it
    /// receives an element from another publisher.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches the subscriber; the trigger is subscribed first.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      // As in Combine: the subscriber gets its subscription first, then the other
      // publisher is subscribed, then the upstream.
      let inner = DropUntilOutputSubscription<Other, S>(downstream: subscriber)
      subscriber.receive(subscription: inner)
      other.receive(subscriber: inner.otherSubscriber)
      upstream.receive(subscriber: inner)
    }
  }
}

/// The subscription of `drop(untilOutputFrom:)`, in Combine's shape: values are dropped
/// (each still counts against the demand asked for) until the other publisher publishes;
/// the other publisher finishing or failing first ends the sequence with its completion.
///
/// - Note: Thread-safe. The lock guards ``State``; `deliveryLock` (recursive) keeps
///   deliveries to the subscriber from overlapping.
private final class DropUntilOutputSubscription<Other: Publisher, Downstream: Subscriber>:
  Guarded<DropUntilOutputSubscription<Other, Downstream>.State>, Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == Other.Failure {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// Everything about the operator that changes; guarded by the lock.
  struct State {
    /// Whether the other publisher has published, so values now pass.
    var isTriggered = false
    /// The upstream subscription, once it arrives and until it ends.
    var upstream: (any Subscription)?
    /// All demand the subscriber asked for; dropped values count against it.
    var pendingDemand = Subscribers.Demand.none
    /// The other publisher's subscription, until it publishes or ends.
    var other: (any Subscription)?
    /// Whether the subscription completed or was cancelled.
    var isCancelled = false
  }

  private let downstream: Downstream
  /// Held while delivering to the subscriber.
  private let deliveryLock = RecursiveLock()

  init(downstream: Downstream) {
    self.downstream = downstream
    super.init(state: State())
  }

  /// The subscriber attached to the other publisher.
  var otherSubscriber: OtherSubscriber { OtherSubscriber(parent: self) }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard stateAssumingLocked.upstream == nil, !stateAssumingLocked.isCancelled else {
      lock.unlock()
      subscription.cancel()
      return
    }
    stateAssumingLocked.upstream = subscription
    let demand = stateAssumingLocked.pendingDemand
    lock.unlock()
    if demand > .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isTriggered, !stateAssumingLocked.isCancelled else {
      // Combine traps on a value nobody asked for (its demand would go negative).
      precondition(
        stateAssumingLocked.pendingDemand > .none, "API Violation: received a value without demand")
      stateAssumingLocked.pendingDemand -= 1
      lock.unlock()
      return .none
    }
    lock.unlock()
    return deliver { downstream.receive(input) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !stateAssumingLocked.isCancelled else {
      lock.unlock()
      return
    }
    stateAssumingLocked.isCancelled = true
    lock.unlock()
    deliver { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    stateAssumingLocked.pendingDemand += demand
    let upstream = stateAssumingLocked.upstream
    lock.unlock()
    upstream?.request(demand)
  }

  func cancel() {
    lock.lock()
    let upstream = stateAssumingLocked.upstream
    let other = stateAssumingLocked.other
    stateAssumingLocked.upstream = nil
    stateAssumingLocked.other = nil
    stateAssumingLocked.isCancelled = true
    lock.unlock()
    upstream?.cancel()
    other?.cancel()
  }

  var description: String { "DropUntilOutput" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }

  fileprivate func otherReceive(subscription: any Subscription) {
    let accepted = withLock { state -> Bool in
      guard state.other == nil else { return false }
      state.other = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.max(1))
  }

  fileprivate func otherReceive() -> Subscribers.Demand {
    withLock { state in
      state.isTriggered = true
      state.other = nil
    }
    return .none
  }

  fileprivate func otherReceive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !stateAssumingLocked.isTriggered else {
      stateAssumingLocked.other = nil
      lock.unlock()
      return
    }
    let upstream = stateAssumingLocked.upstream
    stateAssumingLocked.upstream = nil
    lock.unlock()
    upstream?.cancel()
    deliver { downstream.receive(completion: completion) }
  }

  private func deliver<T>(_ body: () -> T) -> T {
    let acquired = deliveryLock.enter()
    defer { deliveryLock.exit(acquired) }
    return body()
  }

  /// The subscriber attached to the other publisher; it shares the operator's identity.
  struct OtherSubscriber: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    typealias Input = Other.Output
    typealias Failure = Other.Failure

    let parent: DropUntilOutputSubscription
    var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

    func receive(subscription: any Subscription) {
      parent.otherReceive(subscription: subscription)
    }
    func receive(_ input: Input) -> Subscribers.Demand { parent.otherReceive() }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.otherReceive(completion: completion)
    }

    var description: String { "DropUntilOutput" }
    var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
    var playgroundDescription: Any { description }
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
