extension Publisher {
  /// Provides a subject to deliver elements to multiple subscribers.
  ///
  /// The subject is created when the first subscriber arrives; upstream is subscribed
  /// only when you call ``ConnectablePublisher/connect()``.
  ///
  ///     let multicast = [1, 2].publisher.multicast { PassthroughSubject<Int, Never>() }
  ///     let a = multicast.sink { print("a \($0)") }
  ///     let b = multicast.sink { print("b \($0)") }
  ///     let connection = multicast.connect()
  ///     // Prints "a 1", "b 1", "a 2", "b 2"
  ///
  /// - Parameter createSubject: A closure to create a new ``Subject`` each time a
  ///   subscriber attaches to the multicast publisher.
  /// - Returns: A connectable publisher that uses a subject to deliver elements to
  ///   multiple subscribers.
  public func multicast<S: Subject>(
    _ createSubject: @escaping () -> S
  ) -> Publishers.Multicast<Self, S> where Failure == S.Failure, Output == S.Output {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Provides a subject to deliver elements to multiple subscribers.
  ///
  /// - Parameter subject: A subject to deliver elements to downstream subscribers.
  /// - Returns: A connectable publisher that uses the subject to deliver elements.
  public func multicast<S: Subject>(
    subject: S
  ) -> Publishers.Multicast<Self, S> where Failure == S.Failure, Output == S.Output {
    multicast { subject }
  }

  /// Creates a connectable wrapper around the publisher.
  ///
  /// - Returns: A ``ConnectablePublisher`` wrapping this publisher.
  public func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}

extension Publishers {
  /// A publisher that uses a subject to deliver elements to multiple subscribers.
  ///
  /// - Note: Thread-safe: subscribing, connecting and cancelling may happen on any thread.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher,
    @unchecked Sendable
  where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A closure to create a new ``Subject`` each time a subscriber attaches.
    public let createSubject: () -> SubjectType

    /// The lock that guards `subject`.
    private let lock = Lock()
    /// The subject, once the first subscriber or ``connect()`` has made it; guarded by
    /// `lock`.
    private var subject: SubjectType?

    /// Creates a multicast publisher that applies a closure to create a subject that
    /// delivers elements to subscribers.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - createSubject: A closure to create a new ``Subject``.
    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    /// The subject, made by the first caller.
    @usableFromInline
    var sharedSubject: SubjectType {
      if let existing = lock.withLock({ subject }) { return existing }
      let created = createSubject()
      return lock.withLock {
        if let subject { return subject }
        subject = created
        return created
      }
    }

    /// Attaches the subscriber to the shared subject.
    ///
    /// Inlinable, with the subscription it attaches, so that the subject's connection to
    /// it is specialised in the caller's module (see ``Publishers/Autoconnect``).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      sharedSubject.receive(subscriber: MulticastSubscription(downstream: subscriber))
    }

    /// Subscribes the subject to upstream.
    ///
    /// - Returns: A cancellable that disconnects upstream from the subject.
    public func connect() -> any Cancellable {
      upstream.subscribe(sharedSubject)
    }
  }

  /// A publisher that provides explicit connectability to another publisher.
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

    /// Creates a connectable publisher, attached to the provided upstream publisher.
    ///
    /// - Parameter upstream: The publisher from which to receive elements.
    public init(upstream: Upstream) {
      inner = upstream.multicast(subject: PassthroughSubject())
    }

    /// Attaches the subscriber; values flow after ``connect()``.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      inner.receive(subscriber: subscriber)
    }

    /// Connects to upstream.
    ///
    /// - Returns: A cancellable that disconnects.
    public func connect() -> any Cancellable { inner.connect() }
  }
}

/// Stands between the shared subject and one subscriber, as Combine's multicast does: the
/// subscriber sees one "Multicast" subscription, and the demand it returns from a value is
/// asked of the subject as a request. It keeps the subscriber until it ends.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``MulticastState``; subject and
///   subscriber run without it.
@usableFromInline
final class MulticastSubscription<Downstream: Subscriber>: Guarded<MulticastState<Downstream>>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @inlinable
  init(downstream: Downstream) { super.init(state: .ready(downstream)) }

  @inlinable
  func receive(subscription: any Subscription) {
    switch withLock({ $0.subscribed(subscription) }) {
    case .cancel: subscription.cancel()
    case .handTo(let downstream): downstream.receive(subscription: self)
    }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed(let downstream, let subscription) = stateAssumingLocked else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    let more = downstream.receive(input)
    if more > .none { subscription.request(more) }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .end(let downstream, _) = withLock({ $0.ended() }) else { return }
    downstream.receive(completion: completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard case .subscribed(_, let subscription) = stateAssumingLocked else {
      lock.unlock()
      return
    }
    lock.unlock()
    subscription.request(demand)
  }

  @inlinable
  func cancel() {
    guard case .end(_, let subscription) = withLock({ $0.ended() }) else { return }
    subscription.cancel()
  }

  @usableFromInline
  var description: String { "Multicast" }
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  @usableFromInline
  var playgroundDescription: Any { description }
}
