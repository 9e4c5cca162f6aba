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
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let inner = AutoconnectSubscriber(parent: self, downstream: subscriber)
      let joined = state.withLock { state -> Bool in
        guard case .connected(let refcount, let connection) = state else { return false }
        state = .connected(refcount: refcount + 1, connection: connection)
        return true
      }
      upstream.subscribe(inner)
      guard !joined else { return }
      let connection = upstream.connect()
      state.withLock { $0 = .connected(refcount: 1, connection: connection) }
    }

    /// A subscriber cancelled: the last one disconnects the upstream.
    fileprivate func willCancel() {
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
private struct AutoconnectSubscriber<Upstream: ConnectablePublisher, Downstream: Subscriber>:
  Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  let combineIdentifier = CombineIdentifier()
  private let parent: Publishers.Autoconnect<Upstream>
  private let downstream: Downstream

  init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: AutoconnectSubscription(subscription, parent: parent))
  }

  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  var description: String { "Autoconnect" }
  var customMirror: Mirror {
    Mirror(
      self, children: ["parent": parent, "downstream": downstream],
      ancestorRepresentation: .suppressed)
  }
  var playgroundDescription: Any { description }
}

/// The upstream's subscription, as the subscriber sees it through `autoconnect()`: it
/// describes itself as the upstream's and tells the autoconnect when it is cancelled.
private struct AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription,
  CustomStringConvertible, CustomPlaygroundDisplayConvertible
{
  private let parent: Publishers.Autoconnect<Upstream>
  private let upstream: any Subscription

  init(_ upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
    self.upstream = upstream
    self.parent = parent
  }

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  func request(_ demand: Subscribers.Demand) { upstream.request(demand) }

  func cancel() {
    parent.willCancel()
    upstream.cancel()
  }

  var description: String { String(describing: upstream) }
  var playgroundDescription: Any { description }
}
