extension Publisher {
  /// Appends this publisher's output with the specified elements.
  ///
  ///     let cancellable = [1, 2].publisher.append(3, 4).sink { print($0) }
  ///     // Prints "1", "2", "3", "4"
  ///
  /// - Parameter elements: Elements to publish after this publisher's elements.
  /// - Returns: A publisher that appends the specified elements after this publisher's
  ///   elements.
  public func append(_ elements: Output...)
    -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>>
  {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Appends this publisher's output with the elements of a sequence.
  public func append<S: Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where Output == S.Element {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Appends the output of this publisher with the elements emitted by the given
  /// publisher, which is subscribed only after this one finishes.
  ///
  /// - Parameter publisher: The publisher whose elements follow.
  /// - Returns: A publisher that emits this publisher's elements, then the other's.
  public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
  where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }

  /// Prefixes this publisher's output with the specified values.
  ///
  ///     let cancellable = [3].publisher.prepend(1, 2).sink { print($0) }
  ///     // Prints "1", "2", "3"
  ///
  /// - Parameter elements: The elements to publish before this publisher's elements.
  /// - Returns: A publisher that prefixes the specified elements.
  public func prepend(_ elements: Output...)
    -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self>
  {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Prefixes this publisher's output with the elements of a sequence.
  public func prepend<S: Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where Output == S.Element {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Prefixes the output of this publisher with the elements emitted by the given
  /// publisher; this publisher is subscribed only after that one finishes.
  ///
  /// - Parameter publisher: The publisher whose elements come first.
  /// - Returns: A publisher that emits the other's elements, then this one's.
  public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
  where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }
}

extension Publishers {
  /// A publisher that emits all of one publisher’s elements before those from another
  /// publisher.
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
    /// The kind of values published by this publisher.
    public typealias Output = Suffix.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Suffix.Failure

    /// The publisher to republish, in its entirety, before republishing elements from
    /// `suffix`.
    public let prefix: Prefix
    /// The publisher to republish only after `prefix` finishes.
    public let suffix: Suffix

    /// Creates a publisher that emits all of one publisher’s elements before those from
    /// another publisher.
    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    /// Attaches the subscriber: subscribes to `prefix` now and to `suffix` only once
    /// `prefix` finishes, carrying the demand still outstanding over to it.
    public func receive<S: Subscriber>(subscriber: S)
    where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
      let inner = ConcatenateInner(downstream: subscriber, suffix: suffix)
      prefix.receive(subscriber: ConcatenatePrefixSubscriber(owner: inner))
    }
  }
}

/// The subscription handed downstream by ``Publishers/Concatenate``: it owns the state
/// shared by the prefix and suffix phases, a ``ConcatenateState`` that decides, and
/// carries out its actions once unlocked.
///
/// Each upstream is subscribed to through its own small forwarding value
/// (``ConcatenatePrefixSubscriber``, ``ConcatenateSuffixSubscriber``) rather than this
/// object itself, so that a late or repeated event from the prefix can never be taken
/// for one from the suffix, while all three still share one combine identifier, as in
/// Combine.
private final class ConcatenateInner<Downstream: Subscriber, Suffix: Publisher>:
  Guarded<ConcatenateState<Suffix>>, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
  /// The element type of both upstreams.
  typealias Input = Downstream.Input
  /// The failure type of both upstreams.
  typealias Failure = Downstream.Failure

  /// The subscriber that receives both upstreams' events. Combine keeps it even after
  /// cancellation (the upstream, not this object, decides when it is released), so it
  /// is a constant.
  private let downstream: Downstream

  /// Creates the shared state for one subscription.
  init(downstream: Downstream, suffix: Suffix) {
    self.downstream = downstream
    super.init(state: ConcatenateState(suffix: suffix))
  }

  /// Records the demand (for handing over to the suffix) and forwards it to whichever
  /// upstream is active.
  func request(_ demand: Subscribers.Demand) {
    withLock { $0.machine.demandRequested(demand) }?.request(demand)
  }

  /// Cancels whichever upstream is active and releases the suffix publisher.
  func cancel() {
    switch withLock({ $0.cancelled() }) {
    case .cancel(let active, let released):
      withExtendedLifetime(released) { active?.cancel() }
    }
  }

  /// The name Combine gives this subscription.
  var description: String { "Concatenate" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  /// The same as ``description``.
  var playgroundDescription: Any { description }

  // MARK: Prefix events

  /// Accepts the prefix's subscription (once) and hands this object downstream.
  func prefixReceive(subscription: any Subscription) {
    carryOut(withLock { $0.machine.prefixSubscribed(subscription) }, for: subscription)
  }

  /// Forwards a prefix element if downstream asked for one.
  func prefixReceive(_ input: Input) -> Subscribers.Demand {
    guard case .deliver = withLock({ $0.machine.prefixValueArrived() }) else { return .none }
    let more = downstream.receive(input)
    if more > 0 { withLock { $0.machine.demandAdded(more) } }
    return more
  }

  /// On success subscribes to the suffix; on failure passes the failure on.
  func prefixReceive(completion: Subscribers.Completion<Failure>) {
    let failed = if case .failure = completion { true } else { false }
    switch withLock({ $0.prefixCompleted(failed: failed) }) {
    case .ignore: return
    case .subscribe(let suffix):
      suffix.receive(subscriber: ConcatenateSuffixSubscriber(owner: self))
    case .fail: downstream.receive(completion: completion)
    }
  }

  // MARK: Suffix events

  /// Accepts the suffix's subscription (once) and asks it for the demand the prefix left
  /// unsatisfied.
  func suffixReceive(subscription: any Subscription) {
    carryOut(withLock { $0.machine.suffixSubscribed(subscription) }, for: subscription)
  }

  /// Forwards a suffix element; the suffix tracks demand itself from here on.
  func suffixReceive(_ input: Input) -> Subscribers.Demand {
    guard case .deliver = withLock({ $0.machine.suffixValueArrived() }) else { return .none }
    return downstream.receive(input)
  }

  /// Passes the suffix's completion on and ends the subscription.
  func suffixReceive(completion: Subscribers.Completion<Failure>) {
    guard case .complete = withLock({ $0.machine.suffixCompleted() }) else { return }
    downstream.receive(completion: completion)
  }

  /// Carries out what the state machine decided about either upstream's subscription.
  private func carryOut(
    _ action: ConcatenateStateMachine.SubscriptionAction,
    for subscription: any Subscription
  ) {
    switch action {
    case .cancel: subscription.cancel()
    case .handDownstream: downstream.receive(subscription: self)
    case .request(let demand): if demand > 0 { subscription.request(demand) }
    }
  }
}

/// The subscriber attached to the prefix: forwards to ``ConcatenateInner`` and shares
/// its identity and description.
private struct ConcatenatePrefixSubscriber<Downstream: Subscriber, Suffix: Publisher>:
  OwnerForwardingSubscriber
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
  /// The element type of the prefix.
  typealias Input = Downstream.Input
  /// The failure type of the prefix.
  typealias Failure = Downstream.Failure

  /// The state this subscriber forwards to, and whose identity it shows.
  let owner: ConcatenateInner<Downstream, Suffix>

  /// Forwards to ``ConcatenateInner/prefixReceive(subscription:)``.
  func receive(subscription: any Subscription) { owner.prefixReceive(subscription: subscription) }
  /// Forwards to ``ConcatenateInner/prefixReceive(_:)``.
  func receive(_ input: Input) -> Subscribers.Demand { owner.prefixReceive(input) }
  /// Forwards to ``ConcatenateInner/prefixReceive(completion:)``.
  func receive(completion: Subscribers.Completion<Failure>) {
    owner.prefixReceive(completion: completion)
  }
}

/// The subscriber attached to the suffix: forwards to ``ConcatenateInner`` and shares
/// its identity and description. A distinct type from the prefix's, as in Combine.
private struct ConcatenateSuffixSubscriber<Downstream: Subscriber, Suffix: Publisher>:
  OwnerForwardingSubscriber
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
  /// The element type of the suffix.
  typealias Input = Downstream.Input
  /// The failure type of the suffix.
  typealias Failure = Downstream.Failure

  /// The state this subscriber forwards to, and whose identity it shows.
  let owner: ConcatenateInner<Downstream, Suffix>

  /// Forwards to ``ConcatenateInner/suffixReceive(subscription:)``.
  func receive(subscription: any Subscription) { owner.suffixReceive(subscription: subscription) }
  /// Forwards to ``ConcatenateInner/suffixReceive(_:)``.
  func receive(_ input: Input) -> Subscribers.Demand { owner.suffixReceive(input) }
  /// Forwards to ``ConcatenateInner/suffixReceive(completion:)``.
  func receive(completion: Subscribers.Completion<Failure>) {
    owner.suffixReceive(completion: completion)
  }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
