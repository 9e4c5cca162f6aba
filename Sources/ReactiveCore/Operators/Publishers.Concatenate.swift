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

    /// Attaches the subscriber; outstanding demand carries over to the suffix.
    public func receive<S: Subscriber>(subscriber: S)
    where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
      let suffix = suffix
      prefix.receive(
        subscriber:
          ConcatenateSubscription(downstream: subscriber) { suffix.erasedForConcatenation })
    }
  }
}

extension Publisher {
  fileprivate var erasedForConcatenation: AnyPublisher<Output, Failure> { eraseToAnyPublisher() }
}

/// Forwards the prefix, then subscribes to the suffix with the demand still outstanding.
private final class ConcatenateSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var onSuffix = false
  @exclusivity(unchecked)
  private var makeSuffix: (() -> AnyPublisher<Input, Failure>)?

  init(downstream: Downstream, suffix: @escaping () -> AnyPublisher<Input, Failure>) {
    self.downstream = downstream
    makeSuffix = suffix
  }

  func receive(subscription: any Subscription) {
    let (target, pending, isSuffix) = lock.withLock {
      () -> (Downstream?, Subscribers.Demand, Bool) in
      guard case .awaitingSubscription = status, let downstream else { return (nil, .none, false) }
      status = .subscribed(subscription)
      return (downstream, demand, onSuffix)
    }
    guard let target else { return subscription.cancel() }
    if isSuffix {
      if pending > 0 { subscription.request(pending) }
    } else {
      target.receive(subscription: self)
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let target = lock.withLock({ status.subscription == nil ? nil : downstream }) else {
      return .none
    }
    let more = target.receive(input)
    lock.withLock { demand = demand - 1 + more }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let next = lock.withLock { () -> (Downstream?, (() -> AnyPublisher<Input, Failure>)?) in
      guard case .subscribed = status else { return (nil, nil) }
      if case .finished = completion, let makeSuffix {
        self.makeSuffix = nil
        onSuffix = true
        status = .awaitingSubscription
        return (nil, makeSuffix)
      }
      status = .terminal
      defer { downstream = nil }
      return (downstream, nil)
    }
    if let makeSuffix = next.1 {
      makeSuffix().receive(subscriber: self)
    } else {
      next.0?.receive(completion: completion)
    }
  }

  func request(_ additional: Subscribers.Demand) {
    lock.withLock { () -> (any Subscription)? in
      demand += additional
      return status.subscription
    }?.request(additional)
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        downstream = nil
        makeSuffix = nil
      }
      return (status.subscription, downstream)
    }
    taken.0?.cancel()
  }

  var description: String { "Concatenate" }
}
