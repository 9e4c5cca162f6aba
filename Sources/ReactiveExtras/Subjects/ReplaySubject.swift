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

  private let lock = Lock()
  @exclusivity(unchecked)
  private var replay: [Output] = []
  @exclusivity(unchecked)
  private var subscriptions: [ReplayConnection<Output, Failure>] = []
  @exclusivity(unchecked)
  private var completion: Subscribers.Completion<Failure>?
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
  fileprivate func remove(_ connection: ReplayConnection<Output, Failure>) {
    lock.withLock { subscriptions.removeAll { $0 === connection } }
  }
}

/// One subscriber's connection, type-erased for the subject's list.
private class ReplayConnection<Output, Failure: Error>: @unchecked Sendable {
  func push(_ value: Output) { fatalError("abstract") }
  func complete(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
}

/// Holds what one subscriber has not asked for yet.
private final class ReplaySubscription<Downstream: Subscriber>: ReplayConnection<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private let buffer: DemandBuffer<Downstream>
  private let lock = Lock()
  /// The subject, until cancel: weak, since the subject keeps this connection.
  @exclusivity(unchecked)
  private weak var parent: ReplaySubject<Output, Failure>?

  init(parent: ReplaySubject<Output, Failure>, downstream: Downstream) {
    self.parent = parent
    buffer = DemandBuffer(downstream)
  }

  func enqueue(_ value: Output) { buffer.enqueue(value) }

  override func push(_ value: Output) { buffer.push(value) }
  override func complete(_ completion: Subscribers.Completion<Failure>) {
    buffer.complete(completion)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    buffer.request(demand)
  }

  func cancel() {
    let parent = lock.withLock { self.parent.take() }
    buffer.cancel()
    parent?.remove(self)
  }

  var description: String { "ReplaySubject" }
}
