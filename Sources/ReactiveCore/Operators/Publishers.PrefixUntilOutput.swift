extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher
  ///   publishes an element, then finishes.
  public func prefix<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.PrefixUntilOutput<Self, P>
  {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that republishes elements until another publisher emits an element.
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// Another publisher, whose first output causes this publisher to finish.
    public let other: Other

    /// Creates a publisher that republishes elements until another publisher emits an
    /// element.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches the subscriber; the trigger's first value finishes it.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      // As in Combine, the trigger is subscribed first, then the upstream.
      upstream.receive(
        subscriber: PrefixUntilOutputSubscription<Other, S>(downstream: subscriber, trigger: other))
    }
  }
}

/// The subscription of `prefix(untilOutputFrom:)`, in Combine's shape: values pass until
/// the trigger publishes, which cancels the upstream and finishes; the trigger finishing
/// or failing changes nothing. Like Combine's, it does not describe itself.
///
/// - Note: Thread-safe. The lock guards ``State``, everything that changes.
private final class PrefixUntilOutputSubscription<Other: Publisher, Downstream: Subscriber>:
  Guarded<PrefixUntilOutputSubscription<Other, Downstream>.State>, Subscriber, Subscription,
  @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// Everything about the operator that changes; guarded by the lock.
  struct State {
    /// Where this stands with the upstream whose prefix passes.
    var prefixStatus = SubscriptionStatus.awaitingSubscription
    /// Where this stands with the trigger publisher.
    var triggerStatus = SubscriptionStatus.awaitingSubscription
    /// Whether the trigger has published, ending the prefix.
    var isTriggered = false
  }

  private let downstream: Downstream

  init(downstream: Downstream, trigger: Other) {
    self.downstream = downstream
    super.init(state: State())
    trigger.subscribe(TriggerSubscriber(parent: self))
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = stateAssumingLocked.prefixStatus else {
      lock.unlock()
      subscription.cancel()
      return
    }
    stateAssumingLocked.prefixStatus =
      stateAssumingLocked.isTriggered ? .terminal : .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard withLock({ $0.prefixStatus.subscription }) != nil else { return .none }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let wasSubscribed = stateAssumingLocked.prefixStatus.subscription != nil
    let trigger = stateAssumingLocked.triggerStatus.subscription
    stateAssumingLocked.prefixStatus = .terminal
    stateAssumingLocked.triggerStatus = .terminal
    lock.unlock()
    trigger?.cancel()
    if wasSubscribed { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { $0.prefixStatus.subscription }?.request(demand)
  }

  func cancel() {
    lock.lock()
    let prefix = stateAssumingLocked.prefixStatus.subscription
    let trigger = stateAssumingLocked.triggerStatus.subscription
    stateAssumingLocked.prefixStatus = .terminal
    stateAssumingLocked.triggerStatus = .terminal
    lock.unlock()
    prefix?.cancel()
    trigger?.cancel()
  }

  fileprivate func triggerReceive(subscription: any Subscription) {
    let accepted = withLock { state -> Bool in
      guard case .awaitingSubscription = state.triggerStatus else { return false }
      state.triggerStatus = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.max(1))
  }

  fileprivate func triggerReceive() -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed = stateAssumingLocked.triggerStatus else {
      lock.unlock()
      return .none
    }
    let prefix = stateAssumingLocked.prefixStatus.subscription
    stateAssumingLocked.prefixStatus = .terminal
    stateAssumingLocked.triggerStatus = .terminal
    stateAssumingLocked.isTriggered = true
    lock.unlock()
    prefix?.cancel()
    downstream.receive(completion: .finished)
    return .none
  }

  fileprivate func triggerReceiveCompletion() {
    withLock { $0.triggerStatus = .terminal }
  }

  /// The subscriber attached to the trigger publisher; it shares the operator's identity.
  private struct TriggerSubscriber: Subscriber {
    typealias Input = Other.Output
    typealias Failure = Other.Failure

    let parent: PrefixUntilOutputSubscription
    var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

    func receive(subscription: any Subscription) {
      parent.triggerReceive(subscription: subscription)
    }
    func receive(_ input: Input) -> Subscribers.Demand { parent.triggerReceive() }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.triggerReceiveCompletion()
    }
  }
}
