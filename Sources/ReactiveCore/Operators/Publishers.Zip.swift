extension Publisher {
  /// Combines elements, in order, from this publisher and 1 other publisher.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func zip<P: Publisher>(_ p: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
    Publishers.Zip(self, p)
  }

  /// Combines elements, in order, from this publisher and 1 other publisher, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func zip<P: Publisher, T>(
    _ p: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
    Publishers.Zip(self, p).map(transform)
  }

  /// Combines elements, in order, from this publisher and 2 other publishers.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func zip<P: Publisher, Q: Publisher>(_ p: P, _ q: Q) -> Publishers.Zip3<Self, P, Q>
  where Failure == P.Failure, Failure == Q.Failure {
    Publishers.Zip3(self, p, q)
  }

  /// Combines elements, in order, from this publisher and 2 other publishers, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func zip<P: Publisher, Q: Publisher, T>(
    _ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
  where Failure == P.Failure, Failure == Q.Failure {
    Publishers.Zip3(self, p, q).map(transform)
  }

  /// Combines elements, in order, from this publisher and 3 other publishers.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ p: P, _ q: Q, _ r: R)
    -> Publishers.Zip4<Self, P, Q, R>
  where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
    Publishers.Zip4(self, p, q, r)
  }

  /// Combines elements, in order, from this publisher and 3 other publishers, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
  where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
    Publishers.Zip4(self, p, q, r).map(transform)
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to 2 publishers.
  public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = (A.Output, B.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B

    /// Creates the publisher from 2 upstreams.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      let inner = ZipInner(sides: 2, downstream: subscriber) { values in
        (values[0] as! A.Output, values[1] as! B.Output)
      }
      subscriber.receive(subscription: inner)
      inner.attach(a, as: 0)
      inner.attach(b, as: 1)
    }
  }

  /// A publisher created by applying the zip function to 3 publishers.
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = (A.Output, B.Output, C.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B
    /// Upstream publisher c.
    public let c: C

    /// Creates the publisher from 3 upstreams.
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      let inner = ZipInner(sides: 3, downstream: subscriber) { values in
        (values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output)
      }
      subscriber.receive(subscription: inner)
      inner.attach(a, as: 0)
      inner.attach(b, as: 1)
      inner.attach(c, as: 2)
    }
  }

  /// A publisher created by applying the zip function to 4 publishers.
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B
    /// Upstream publisher c.
    public let c: C
    /// Upstream publisher d.
    public let d: D

    /// Creates the publisher from 4 upstreams.
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      let inner = ZipInner(sides: 4, downstream: subscriber) { values in
        (
          values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output,
          values[3] as! D.Output
        )
      }
      subscriber.receive(subscription: inner)
      inner.attach(a, as: 0)
      inner.attach(b, as: 1)
      inner.attach(c, as: 2)
      inner.attach(d, as: 3)
    }
  }
}

/// The subscription behind `zip`: queues each upstream's values and sends a tuple as
/// soon as every upstream has one queued, as Combine does.
///
/// Combine's quirks, which this reproduces:
/// - a complete tuple goes downstream at once, whatever the demand; demand only paces
///   the upstreams;
/// - demand that arrives while a tuple is being delivered (requested, or returned by the
///   downstream) reaches the upstream whose value completed the tuple as the return value
///   of its `receive(_:)`, and every other upstream as a `request(_:)`;
/// - a failure cancels every upstream, the failed one included;
/// - the downstream is kept after a failure or a cancel (Combine's subscriber
///   outlives both); it is released once the zip has finished, so that a subscriber that
///   holds on to its subscription does not form a cycle with it.
private final class ZipInner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  /// The failure type shared by every upstream.
  typealias Failure = Downstream.Failure

  /// Builds the downstream's tuple from one value of each upstream, in order.
  private let combine: ([Any]) -> Downstream.Input
  /// The lock that guards every variable below.
  private let lock = Lock()
  /// The subscriber; `nil` once the zip has finished.
  @exclusivity(unchecked)
  private var downstream: Downstream?
  /// Each upstream's subscription, while it is running.
  @exclusivity(unchecked)
  private var subscriptions: [(any Subscription)?]
  /// Whether each upstream has sent its subscription (a second one is cancelled).
  @exclusivity(unchecked)
  private var subscribed: [Bool]
  /// Whether each upstream has finished.
  @exclusivity(unchecked)
  private var finished: [Bool]
  /// The values each upstream sent that are not yet part of a delivered tuple.
  @exclusivity(unchecked)
  private var queues: [[Any]]
  /// All demand requested downstream, handed to an upstream that subscribes late.
  @exclusivity(unchecked)
  private var requested = Subscribers.Demand.none
  /// Completed, failed or cancelled: nothing more passes.
  @exclusivity(unchecked)
  private var isTerminal = false
  /// The upstream whose value completed the tuple being delivered, if one is; the
  /// delivery is serialized through it so the downstream is never called concurrently.
  @exclusivity(unchecked)
  private var deliveringFor: Int?
  /// Demand requested while delivering: already forwarded to the other upstreams, and
  /// owed to `deliveringFor` as its return value.
  @exclusivity(unchecked)
  private var requestedWhileDelivering = Subscribers.Demand.none
  /// A failure that arrived while delivering, sent once the delivery returns.
  @exclusivity(unchecked)
  private var pendingFailure: Subscribers.Completion<Failure>?

  /// Creates the state for `sides` upstreams.
  init(sides: Int, downstream: Downstream, combine: @escaping ([Any]) -> Downstream.Input) {
    self.downstream = downstream
    self.combine = combine
    subscriptions = Array(repeating: nil, count: sides)
    subscribed = Array(repeating: false, count: sides)
    finished = Array(repeating: false, count: sides)
    queues = Array(repeating: [], count: sides)
  }

  /// The name Combine gives this subscription.
  var description: String { "Zip" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:]) }
  /// The same as ``description``.
  var playgroundDescription: Any { description }

  /// Subscribes to one upstream as side `index`.
  func attach<Upstream: Publisher>(_ upstream: Upstream, as index: Int)
  where Upstream.Failure == Failure {
    upstream.receive(subscriber: ZipSide<Downstream, Upstream.Output>(parent: self, index: index))
  }

  // MARK: Subscription

  /// Forwards the demand to every upstream (except the one whose value is being
  /// delivered, which gets it as its return value instead).
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let targets = lock.withLock { () -> [any Subscription] in
      guard !isTerminal else { return [] }
      requested += demand
      guard let deliveringFor else { return subscriptions.compactMap { $0 } }
      requestedWhileDelivering += demand
      return subscriptions.indices.compactMap { $0 == deliveringFor ? nil : subscriptions[$0] }
    }
    for target in targets { target.request(demand) }
  }

  /// Cancels every upstream. The downstream is kept, as in Combine.
  func cancel() {
    for subscription in takeSubscriptions() { subscription.cancel() }
  }

  /// Ends the subscription and takes every upstream subscription out, for cancelling
  /// after unlocking.
  private func takeSubscriptions() -> [any Subscription] {
    lock.withLock {
      isTerminal = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.compactMap { $0 }
    }
  }

  // MARK: Upstream events

  /// Accepts side `index`'s first subscription and asks it for the demand so far.
  func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard !isTerminal, !subscribed[index] else { return nil }
      subscribed[index] = true
      subscriptions[index] = subscription
      return requested
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  /// Queues a value and, if it completes a tuple, delivers it and every tuple completed
  /// meanwhile; returns the demand owed to this side (see the type's documentation).
  func sideReceived(_ index: Int, _ value: Any) -> Subscribers.Demand {
    let start = lock.withLock { () -> (Downstream, [Any])? in
      guard !isTerminal, !finished[index], let downstream else { return nil }
      queues[index].append(value)
      // A delivery in progress picks the value up when it loops.
      guard deliveringFor == nil, let tuple = dequeueTuple() else { return nil }
      deliveringFor = index
      return (downstream, tuple)
    }
    guard let (target, first) = start else { return .none }
    var tuple: [Any]? = first
    var returned = Subscribers.Demand.none
    var owed = Subscribers.Demand.none
    var others: [any Subscription] = []
    while let values = tuple {
      returned += target.receive(combine(values))
      // Looking for another tuple and ending the delivery happen under one lock, so a
      // value queued by another side just after is never stranded.
      tuple = lock.withLock { () -> [Any]? in
        if !isTerminal, pendingFailure == nil, let next = dequeueTuple() { return next }
        deliveringFor = nil
        owed = requestedWhileDelivering
        requestedWhileDelivering = .none
        guard !isTerminal, returned > 0 else { return nil }
        requested += returned
        owed += returned
        others = subscriptions.indices.compactMap { $0 == index ? nil : subscriptions[$0] }
        return nil
      }
    }
    for other in others { other.request(returned) }
    if let failure = lock.withLock({ pendingFailure.take() }) {
      fail(failure)
    } else {
      finishIfExhausted()
    }
    return owed
  }

  /// Handles side `index`'s completion: a failure ends the zip at once; a finish ends it
  /// once that side has no queued value left to pair.
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    let proceed = lock.withLock { () -> Bool in
      guard !isTerminal, !finished[index] else { return false }
      switch completion {
      case .finished:
        finished[index] = true
        subscriptions[index] = nil
      case .failure:
        // The downstream is busy: the delivering side sends the failure afterwards.
        if deliveringFor != nil {
          if pendingFailure == nil { pendingFailure = completion }
          return false
        }
      }
      return deliveringFor == nil
    }
    guard proceed else { return }
    if case .failure = completion { fail(completion) } else { finishIfExhausted() }
  }

  /// Sends the failure downstream, then cancels every upstream, the failed one
  /// included, as Combine does.
  private func fail(_ failure: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (Downstream, [any Subscription])? in
      guard !isTerminal, let downstream else { return nil }
      isTerminal = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return (downstream, subscriptions.compactMap { $0 })
    }
    guard let (target, upstreams) = taken else { return }
    target.receive(completion: failure)
    for upstream in upstreams { upstream.cancel() }
  }

  /// Finishes downstream, and cancels the upstreams still running, once a finished side
  /// has nothing queued: no further tuple is possible.
  private func finishIfExhausted() {
    let taken = lock.withLock { () -> (Downstream, [any Subscription])? in
      guard !isTerminal, deliveringFor == nil,
        queues.indices.contains(where: { finished[$0] && queues[$0].isEmpty })
      else { return nil }
      isTerminal = true
      defer {
        subscriptions = subscriptions.map { _ in nil }
        downstream = nil
      }
      return downstream.map { ($0, subscriptions.compactMap { $0 }) }
    }
    guard let (target, upstreams) = taken else { return }
    target.receive(completion: .finished)
    for upstream in upstreams { upstream.cancel() }
  }

  /// Takes the next value of every side if each has one. Call with the lock held.
  private func dequeueTuple() -> [Any]? {
    guard queues.allSatisfy({ !$0.isEmpty }) else { return nil }
    return queues.indices.map { queues[$0].removeFirst() }
  }
}

/// The subscriber attached to one upstream of a zip: forwards to ``ZipInner`` with its
/// side's index.
private struct ZipSide<Downstream: Subscriber, Input>: Subscriber {
  /// The failure type of every upstream.
  typealias Failure = Downstream.Failure

  /// The zip this side belongs to.
  let parent: ZipInner<Downstream>
  /// Which upstream this is.
  let index: Int
  /// Each side is its own subscriber.
  let combineIdentifier = CombineIdentifier()

  /// Forwards to ``ZipInner/sideSubscribed(_:_:)``.
  func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }
  /// Forwards to ``ZipInner/sideReceived(_:_:)``.
  func receive(_ input: Input) -> Subscribers.Demand { parent.sideReceived(index, input) }
  /// Forwards to ``ZipInner/sideCompleted(_:_:)``.
  func receive(completion: Subscribers.Completion<Failure>) {
    parent.sideCompleted(index, completion)
  }
}
