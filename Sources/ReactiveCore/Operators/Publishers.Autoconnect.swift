extension ConnectablePublisher {
  /// Automates the process of connecting or disconnecting from this connectable
  /// publisher.
  ///
  /// It connects when the first subscriber attaches and disconnects when the last one
  /// cancels.
  ///
  ///     let shared = subject.makeConnectable().autoconnect()
  ///
  /// - Returns: A publisher which automatically connects to its upstream connectable
  ///   publisher.
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

extension Publishers {
  /// A publisher that automatically connects to an upstream connectable publisher.
  ///
  /// - Note: Thread-safe: subscribers may arrive and cancel on any thread.
  public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    /// The lock that guards `subscriberCount` and `connection`.
    private let lock = Lock()
    @exclusivity(unchecked)
    private var subscriberCount = 0
    @exclusivity(unchecked)
    private var connection: (any Cancellable)?

    /// Creates a publisher that automatically connects to an upstream connectable
    /// publisher.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber, connecting upstream if it is the first.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      lock.withLock { subscriberCount += 1 }
      upstream.receive(subscriber: AutoconnectTap(parent: self, downstream: subscriber))
      let needsConnection = lock.withLock { () -> Bool in
        guard connection == nil, subscriberCount > 0 else { return false }
        connection = Connecting()
        return true
      }
      guard needsConnection else { return }
      let made = upstream.connect()
      let stale = lock.withLock { () -> (any Cancellable)? in
        guard connection is Connecting else { return made }
        connection = made
        return nil
      }
      stale?.cancel()
    }

    /// Called when one subscriber ends; the last one disconnects upstream.
    fileprivate func subscriberEnded() {
      let toCancel = lock.withLock { () -> (any Cancellable)? in
        subscriberCount -= 1
        guard subscriberCount == 0 else { return nil }
        defer { connection = nil }
        return connection
      }
      toCancel?.cancel()
    }

    /// A placeholder while `connect()` runs outside the lock.
    private struct Connecting: Cancellable {
      func cancel() {}
    }
  }
}

/// Forwards everything and tells the autoconnect when its subscriber cancels or ends.
private final class AutoconnectTap<Upstream: ConnectablePublisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards `status`, `parent` and `downstream`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var parent: Publishers.Autoconnect<Upstream>?
  @exclusivity(unchecked)
  private var downstream: Downstream?

  init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    target.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { status.subscription == nil ? nil : downstream }?.receive(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (Downstream?, Publishers.Autoconnect<Upstream>?) in
      guard case .subscribed = status else { return (nil, nil) }
      status = .terminal
      defer {
        downstream = nil
        parent = nil
      }
      return (downstream, parent)
    }
    taken.0?.receive(completion: completion)
    taken.1?.subscriberEnded()
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, Publishers.Autoconnect<Upstream>?) in
      defer {
        status = .terminal
        downstream = nil
        parent = nil
      }
      return (status.subscription, parent)
    }
    taken.0?.cancel()
    taken.1?.subscriberEnded()
  }

  var description: String { "Autoconnect" }
}
