import ReactiveCore

/// A subject that replays its last values to every new subscriber, then passes on live
/// values, and replays its completion too.
///
///     let subject = ReplaySubject<Int, Never>(bufferSize: 2)
///     [1, 2, 3].forEach(subject.send)
///     let cancellable = subject.sink { print($0) }
///     // Prints "2", "3"
///
/// Each subscriber receives the replay and the live values in order, as its demand allows
/// (what it has not asked for yet waits for it, per subscriber). When the subject
/// completes, its subscribers get the completion at once, as CombineExt's do: values a
/// subscriber has not asked for by then are dropped. A subscriber that joins after the
/// completion gets the replay as it asks for it, then the completion.
///
/// - Note: Thread-safe. A subscriber that joins while values are being sent receives each
///   value exactly once: either in its replay or live.
public final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  /// How many values a new subscriber receives first.
  public let bufferSize: Int

  // Inlinable paths below, so that each subscriber's connection is specialised for its
  // type in the client's module (as ReactiveCore's subjects are).
  /// The subject's state behind its lock (a box: `Guarded` cannot be subclassed outside
  /// ReactiveCore).
  @usableFromInline
  let state = LockedBox(State())

  /// Everything about the subject that changes; guarded by its box's lock.
  @usableFromInline
  struct State {
    /// The latest values, at most `bufferSize`, for new subscribers.
    @usableFromInline
    var replay: [Output] = []
    /// The live subscribers' connections.
    @usableFromInline
    var subscriptions: [ReplayConnection<Output, Failure>] = []
    /// The completion, once sent; replayed to later subscribers.
    @usableFromInline
    var completion: Subscribers.Completion<Failure>?
    /// The upstream subscriptions, cancelled when the subject goes away.
    @usableFromInline
    var upstreams: [any Subscription] = []

    /// The state of a new subject.
    @usableFromInline
    init() {}
  }

  /// Creates a subject that replays up to `bufferSize` values.
  ///
  /// - Parameter bufferSize: How many of the latest values to replay; zero or more.
  public init(bufferSize: Int) {
    precondition(bufferSize >= 0, "bufferSize must be zero or more")
    self.bufferSize = bufferSize
  }

  deinit {
    for upstream in state.withLock({ $0.upstreams }) { upstream.cancel() }
  }

  /// Sends a value to the subscribers and keeps it for later ones.
  ///
  /// - Parameter value: The value to send.
  @inlinable
  public func send(_ value: Output) {
    let bufferSize = self.bufferSize
    let targets = state.withLock { state -> [ReplayConnection<Output, Failure>] in
      guard state.completion == nil else { return [] }
      if bufferSize > 0 {
        if state.replay.count == bufferSize { state.replay.removeFirst() }
        state.replay.append(value)
      }
      return state.subscriptions
    }
    for target in targets { target.push(value) }
  }

  /// Sends the completion to the subscribers and keeps it for later ones.
  ///
  /// - Parameter completion: The completion.
  public func send(completion: Subscribers.Completion<Failure>) {
    let targets = state.withLock { state -> [ReplayConnection<Output, Failure>] in
      guard state.completion == nil else { return [] }
      state.completion = completion
      defer { state.subscriptions = [] }
      return state.subscriptions
    }
    for target in targets { target.complete(completion, discardingHeld: true) }
  }

  /// Keeps an upstream subscription and asks it for every value.
  ///
  /// - Parameter subscription: The upstream subscription.
  public func send(subscription: any Subscription) {
    state.withLock { $0.upstreams.append(subscription) }
    subscription.request(.unlimited)
  }

  /// Attaches the subscriber: it receives the replay, then live values.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let connection = ReplaySubscription(parent: self, downstream: subscriber)
    let ended = state.withLock { state -> Subscribers.Completion<Failure>? in
      for value in state.replay { connection.enqueue(value) }
      if state.completion == nil { state.subscriptions.append(connection) }
      return state.completion
    }
    subscriber.receive(subscription: connection)
    // A completed subject's completion goes out after the replay, as soon as the
    // subscriber has asked for the replayed values (at once if there are none).
    if let ended { connection.complete(ended, discardingHeld: false) }
  }

  /// Forgets a cancelled subscription.
  @usableFromInline
  func remove(_ connection: ReplayConnection<Output, Failure>) {
    state.withLock { $0.subscriptions.removeAll { $0 === connection } }
  }
}

/// One subscriber's connection, type-erased for the subject's list.
///
/// Values reach the concrete connection through `entry`, a closure its (specialised)
/// initialiser sets, rather than through an overridden method: an override in a generic
/// class is called unspecialised across modules.
@usableFromInline
class ReplayConnection<Output, Failure: Error>: @unchecked Sendable {
  /// Delivers a value to the concrete connection passed in. A constant, so that reading
  /// it costs no run-time exclusivity check (as a variable set after `init`, that check
  /// was a sixth of a delivery's instructions).
  @usableFromInline
  final let entry: (ReplayConnection, Output) -> Void

  @usableFromInline
  init(entry: @escaping (ReplayConnection, Output) -> Void) { self.entry = entry }

  /// Queues a value for the subscriber and delivers what its demand allows.
  @inlinable
  final func push(_ value: Output) { entry(self, value) }

  /// Ends the subscriber's stream after what it has queued.
  @usableFromInline
  /// Completes the subscriber; `discardingHeld` drops the values it has not asked for.
  func complete(_ completion: Subscribers.Completion<Failure>, discardingHeld: Bool) {
    fatalError("abstract")
  }
}

/// Holds what one subscriber has not asked for yet.
@usableFromInline
final class ReplaySubscription<Downstream: Subscriber>: ReplayConnection<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Output = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let buffer: DemandBuffer<Downstream, Void>
  /// The subject, until cancel, behind its lock.
  @usableFromInline
  let parent: LockedBox<ParentLink>

  /// A weak reference to the subject: weak, since the subject keeps this connection.
  @usableFromInline
  struct ParentLink {
    /// The subject, until cancel.
    @usableFromInline
    weak var subject: ReplaySubject<Output, Failure>?

    /// Links to `subject`.
    @inlinable
    init(_ subject: ReplaySubject<Output, Failure>) { self.subject = subject }
  }

  @inlinable
  init(parent: ReplaySubject<Output, Failure>, downstream: Downstream) {
    self.parent = LockedBox(ParentLink(parent))
    buffer = DemandBuffer(downstream)
    super.init { connection, value in
      unsafeDowncast(connection, to: ReplaySubscription.self).buffer.push(value)
    }
  }

  @inlinable
  func enqueue(_ value: Output) { buffer.enqueue(value) }

  @usableFromInline
  override func complete(_ completion: Subscribers.Completion<Failure>, discardingHeld: Bool) {
    buffer.complete(completion, discardingHeld: discardingHeld)
  }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing, as in CombineExt's demand buffer.
    guard demand > 0 else { return }
    buffer.addDemand(demand)
  }

  @usableFromInline
  func cancel() {
    let parent = self.parent.withLock { $0.subject.take() }
    buffer.release()
    parent?.remove(self)
  }

  @usableFromInline
  var description: String { "ReplaySubject" }
}
