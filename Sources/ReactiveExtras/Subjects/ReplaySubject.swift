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
/// (what it has not asked for yet waits for it, per subscriber).
///
/// - Note: Thread-safe. A subscriber that joins while values are being sent receives each
///   value exactly once: either in its replay or live.
public final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  /// How many values a new subscriber receives first.
  public let bufferSize: Int

  // Inlinable paths below, so that each subscriber's connection is specialised for its
  // type in the client's module (as ReactiveCore's subjects are).
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var replay: [Output] = []
  @usableFromInline
  @exclusivity(unchecked)
  var subscriptions: [ReplayConnection<Output, Failure>] = []
  @usableFromInline
  @exclusivity(unchecked)
  var completion: Subscribers.Completion<Failure>?
  @exclusivity(unchecked)
  private var upstreams: [any Subscription] = []

  /// Creates a subject that replays up to `bufferSize` values.
  ///
  /// - Parameter bufferSize: How many of the latest values to replay; zero or more.
  public init(bufferSize: Int) {
    precondition(bufferSize >= 0, "bufferSize must be zero or more")
    self.bufferSize = bufferSize
  }

  deinit {
    for upstream in upstreams { upstream.cancel() }
  }

  /// Sends a value to the subscribers and keeps it for later ones.
  ///
  /// - Parameter value: The value to send.
  @inlinable
  public func send(_ value: Output) {
    let targets = lock.withLock { () -> [ReplayConnection<Output, Failure>] in
      guard completion == nil else { return [] }
      if bufferSize > 0 {
        if replay.count == bufferSize { replay.removeFirst() }
        replay.append(value)
      }
      return subscriptions
    }
    for target in targets { target.push(value) }
  }

  /// Sends the completion to the subscribers and keeps it for later ones.
  ///
  /// - Parameter completion: The completion.
  public func send(completion: Subscribers.Completion<Failure>) {
    let targets = lock.withLock { () -> [ReplayConnection<Output, Failure>] in
      guard self.completion == nil else { return [] }
      self.completion = completion
      defer { subscriptions = [] }
      return subscriptions
    }
    for target in targets { target.complete(completion) }
  }

  /// Keeps an upstream subscription and asks it for every value.
  ///
  /// - Parameter subscription: The upstream subscription.
  public func send(subscription: any Subscription) {
    lock.withLock { upstreams.append(subscription) }
    subscription.request(.unlimited)
  }

  /// Attaches the subscriber: it receives the replay, then live values.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let connection = ReplaySubscription(parent: self, downstream: subscriber)
    lock.lock()
    for value in replay { connection.enqueue(value) }
    let ended = completion
    if ended == nil { subscriptions.append(connection) }
    lock.unlock()
    subscriber.receive(subscription: connection)
    // A completed subject's completion goes out after the replay, as soon as the
    // subscriber has asked for the replayed values (at once if there are none).
    if let ended { connection.complete(ended) }
  }

  /// Forgets a cancelled subscription.
  @usableFromInline
  func remove(_ connection: ReplayConnection<Output, Failure>) {
    lock.withLock { subscriptions.removeAll { $0 === connection } }
  }
}

/// One subscriber's connection, type-erased for the subject's list.
///
/// Values reach the concrete connection through `entry`, a closure its (specialised)
/// initialiser sets, rather than through an overridden method: an override in a generic
/// class is called unspecialised across modules.
@usableFromInline
class ReplayConnection<Output, Failure: Error>: @unchecked Sendable {
  /// Delivers a value to the concrete connection passed in. Set once, before sharing.
  @usableFromInline
  final var entry: (ReplayConnection, Output) -> Void = { _, _ in }

  @usableFromInline
  init() {}

  /// Queues a value for the subscriber and delivers what its demand allows.
  @inlinable
  final func push(_ value: Output) { entry(self, value) }

  /// Ends the subscriber's stream after what it has queued.
  @usableFromInline
  func complete(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
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
  let buffer: DemandBuffer<Downstream>
  @usableFromInline
  let lock = Lock()
  /// The subject, until cancel: weak, since the subject keeps this connection.
  @usableFromInline
  @exclusivity(unchecked)
  weak var parent: ReplaySubject<Output, Failure>?

  @inlinable
  init(parent: ReplaySubject<Output, Failure>, downstream: Downstream) {
    self.parent = parent
    buffer = DemandBuffer(downstream)
    super.init()
    entry = { connection, value in
      unsafeDowncast(connection, to: ReplaySubscription.self).buffer.push(value)
    }
  }

  @inlinable
  func enqueue(_ value: Output) { buffer.enqueue(value) }

  @usableFromInline
  override func complete(_ completion: Subscribers.Completion<Failure>) {
    buffer.complete(completion)
  }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    buffer.addDemand(demand)
  }

  @usableFromInline
  func cancel() {
    let parent = lock.withLock { self.parent.take() }
    buffer.release()
    parent?.remove(self)
  }

  @usableFromInline
  var description: String { "ReplaySubject" }
}
