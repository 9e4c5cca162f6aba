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
      let gate = Gate()
      let trigger = Trigger<Other.Output, Other.Failure>(gate: gate)
      let inner = StepOperator<Output, Failure, S>("DropUntilOutput", downstream: subscriber) {
        gate.isOpen ? .emit($0) : .drop
      }
      trigger.onFailure = { [weak inner] error in inner?.terminate(.failure(error)) }
      upstream.receive(subscriber: inner)
      inner.bind(trigger)
      other.receive(subscriber: trigger)
    }
  }

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
      let gate = Gate()
      let trigger = Trigger<Other.Output, Other.Failure>(gate: gate)
      let inner = StepOperator<Output, Failure, S>("PrefixUntilOutput", downstream: subscriber) {
        gate.isOpen ? .finish : .emit($0)
      }
      trigger.onOpen = { [weak inner] in inner?.terminate(.finished) }
      upstream.receive(subscriber: inner)
      inner.bind(trigger)
      other.receive(subscriber: trigger)
    }
  }
}

/// Whether a trigger publisher has emitted.
private final class Gate: @unchecked Sendable {
  /// The lock that guards `open`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var open = false

  var isOpen: Bool { lock.withLock { open } }

  /// Opens the gate; true only for the call that opened it.
  func openOnce() -> Bool {
    lock.withLock {
      defer { open = true }
      return !open
    }
  }
}

/// Subscribes to the trigger publisher and opens the gate on its first value.
private final class Trigger<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  /// The lock that guards `subscription` and the two callbacks.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var subscription: (any Subscription)?
  @exclusivity(unchecked)
  private var isCancelled = false
  private let gate: Gate
  var onOpen: (() -> Void)? {
    get { lock.withLock { openAction } }
    set { lock.withLock { openAction = newValue } }
  }
  var onFailure: ((Failure) -> Void)? {
    get { lock.withLock { failureAction } }
    set { lock.withLock { failureAction = newValue } }
  }
  @exclusivity(unchecked)
  private var openAction: (() -> Void)?
  @exclusivity(unchecked)
  private var failureAction: ((Failure) -> Void)?

  init(gate: Gate) { self.gate = gate }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard self.subscription == nil, !isCancelled else { return false }
      self.subscription = subscription
      return true
    }
    if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard gate.openOnce() else { return .none }
    let (action, upstream) = lock.withLock { () -> ((() -> Void)?, (any Subscription)?) in
      defer {
        subscription = nil
        openAction = nil
        failureAction = nil
      }
      return (openAction, subscription)
    }
    upstream?.cancel()
    action?()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure(let error) = completion else { return }
    lock.withLock { failureAction }?(error)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        isCancelled = true
        subscription = nil
        openAction = nil
        failureAction = nil
      }
      return subscription
    }
    upstream?.cancel()
  }
}
