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

    /// Whether the upstream is connected, and for how many subscribers.
    private enum State {
      case disconnected
      case connected(refcount: Int, connection: any Cancellable)
    }

    /// The connection state, behind its lock.
    private let state = LockedBox(State.disconnected)

    /// Creates a publisher that automatically connects to an upstream connectable
    /// publisher.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber; the first one connects the upstream, after subscribing.
    ///
    /// As in Combine, the connection is recorded only once `connect()` returns, so a
    /// subscriber that arrives from inside that call connects again.
    ///
    /// Inlinable, with the subscriber it attaches, so that the whole shared path (the
    /// multicast's subscription and the subject's connection) is specialised for the
    /// subscriber in the caller's module: unspecialised, a `share(replay:)` delivery
    /// spent most of its time looking up generic metadata.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let joined = joinIfConnected()
      upstream.subscribe(AutoconnectSubscriber(parent: self, downstream: subscriber))
      if !joined { connectFirst() }
    }

    /// Counts one more subscriber if the upstream is connected; returns whether it was.
    @usableFromInline
    func joinIfConnected() -> Bool {
      state.withLock { state -> Bool in
        guard case .connected(let refcount, let connection) = state else { return false }
        state = .connected(refcount: refcount + 1, connection: connection)
        return true
      }
    }

    /// Connects the upstream for the first subscriber, after it has subscribed.
    @usableFromInline
    func connectFirst() {
      let connection = upstream.connect()
      state.withLock { $0 = .connected(refcount: 1, connection: connection) }
    }

    /// A subscriber cancelled: the last one disconnects the upstream.
    @usableFromInline
    func willCancel() {
      let disconnected = state.withLock { state -> (any Cancellable)? in
        guard case .connected(let refcount, let connection) = state else { return nil }
        guard refcount <= 1 else {
          state = .connected(refcount: refcount - 1, connection: connection)
          return nil
        }
        state = .disconnected
        return connection
      }
      disconnected?.cancel()
    }
  }
}

/// What `autoconnect()` subscribes upstream for one subscriber: values and completions
/// pass straight through, and the subscriber gets the upstream's subscription wrapped only
/// so that its cancel also releases the connection (Combine counts subscribers, and
/// disconnects, on cancel only).
@usableFromInline
struct AutoconnectSubscriber<Upstream: ConnectablePublisher, Downstream: Subscriber>:
  Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  @usableFromInline
  let combineIdentifier = CombineIdentifier()
  @usableFromInline
  let parent: Publishers.Autoconnect<Upstream>
  @usableFromInline
  let downstream: Downstream

  @inlinable
  init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: AutoconnectSubscription(subscription, parent: parent))
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  var description: String { "Autoconnect" }
  @usableFromInline
  var customMirror: Mirror {
    Mirror(
      self, children: ["parent": parent, "downstream": downstream],
      ancestorRepresentation: .suppressed)
  }
  @usableFromInline
  var playgroundDescription: Any { description }
}

/// The upstream's subscription, as the subscriber sees it through `autoconnect()`: it
/// describes itself as the upstream's and tells the autoconnect when it is cancelled.
@usableFromInline
struct AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription,
  CustomStringConvertible, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let parent: Publishers.Autoconnect<Upstream>
  @usableFromInline
  let upstream: any Subscription

  @inlinable
  init(_ upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
    self.upstream = upstream
    self.parent = parent
  }

  @usableFromInline
  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) { upstream.request(demand) }

  @usableFromInline
  func cancel() {
    parent.willCancel()
    upstream.cancel()
  }

  @usableFromInline
  var description: String { String(describing: upstream) }
  @usableFromInline
  var playgroundDescription: Any { description }
}
