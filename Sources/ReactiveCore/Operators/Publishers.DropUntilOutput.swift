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
/// - Note: Thread-safe. `lock` guards every variable below; `deliveryLock` (recursive)
///   keeps deliveries to the subscriber from overlapping.
private final class DropUntilOutputSubscription<Other: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == Other.Failure {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  /// The lock that guards every variable below.
  private let lock = Lock()
  /// Held while delivering to the subscriber.
  private let deliveryLock = RecursiveLock()
  @exclusivity(unchecked)
  private var isTriggered = false
  @exclusivity(unchecked)
  private var upstream: (any Subscription)?
  @exclusivity(unchecked)
  private var pendingDemand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var other: (any Subscription)?
  @exclusivity(unchecked)
  private var isCancelled = false

  init(downstream: Downstream) { self.downstream = downstream }

  /// The subscriber attached to the other publisher.
  var otherSubscriber: OtherSubscriber { OtherSubscriber(parent: self) }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard upstream == nil, !isCancelled else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    let demand = pendingDemand
    lock.unlock()
    if demand > .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard isTriggered, !isCancelled else {
      // Combine traps on a value nobody asked for (its demand would go negative).
      precondition(pendingDemand > .none, "API Violation: received a value without demand")
      pendingDemand -= 1
      lock.unlock()
      return .none
    }
    lock.unlock()
    return deliver { downstream.receive(input) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !isCancelled else {
      lock.unlock()
      return
    }
    isCancelled = true
    lock.unlock()
    deliver { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    pendingDemand += demand
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(demand)
  }

  func cancel() {
    lock.lock()
    let taken = (upstream, other)
    upstream = nil
    other = nil
    isCancelled = true
    lock.unlock()
    taken.0?.cancel()
    taken.1?.cancel()
  }

  var description: String { "DropUntilOutput" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }

  fileprivate func otherReceive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard other == nil else { return false }
      other = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.max(1))
  }

  fileprivate func otherReceive() -> Subscribers.Demand {
    lock.withLock {
      isTriggered = true
      other = nil
    }
    return .none
  }

  fileprivate func otherReceive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !isTriggered else {
      other = nil
      lock.unlock()
      return
    }
    let upstream = self.upstream
    self.upstream = nil
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
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
  }
}
