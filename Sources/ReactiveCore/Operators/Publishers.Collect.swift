extension Publisher {
  /// Collects all received elements, and emits a single array of the collection when the
  /// upstream publisher finishes.
  ///
  ///     let cancellable = (1...3).publisher.collect().sink { print($0) }
  ///     // Prints "[1, 2, 3]"
  ///
  /// - Returns: A publisher that collects all received items and returns them as an array
  ///   upon completion.
  /// - Complexity: O(n) memory for n upstream elements; the upstream is unbounded.
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }

  /// Collects up to the specified number of elements, and then emits a single array of
  /// the collection.
  ///
  ///     let cancellable = (1...5).publisher.collect(2).sink { print($0) }
  ///     // Prints "[1, 2]", "[3, 4]", "[5]"
  ///
  /// - Parameter count: The maximum number of received elements to buffer before
  ///   publishing.
  /// - Returns: A publisher that collects up to the specified number of elements, and then
  ///   publishes them as an array.
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that buffers items.
  public struct Collect<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that collects every upstream element.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber; the array waits for downstream demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: CollectSubscription<Upstream.Output, Failure, S>(subscriber))
    }
  }

  /// A publisher that buffers a maximum number of items.
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    /// Creates a publisher that emits arrays of up to `count` elements.
    public init(upstream: Upstream, count: Int) {
      precondition(count > 0, "collect(_:) needs a count greater than zero")
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber; each downstream demand of n asks upstream for n × count.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber: CollectByCountSubscription<Upstream.Output, Failure, S>(
          downstream: subscriber, count: count))
    }
  }
}

/// The subscription of `collect()`: a reduction into an array that, as in Combine, shows
/// only the number of elements collected so far in its mirror.
private final class CollectSubscription<Element, UpstreamFailure: Error, Downstream: Subscriber>:
  ReducingSubscription<Element, UpstreamFailure, Downstream>, @unchecked Sendable
where Downstream.Input == [Element] {
  /// Creates the subscription for `downstream`, starting from an empty array.
  init(_ downstream: Downstream) {
    super.init("Collect", downstream: downstream, initial: []) { elements, input in
      // Appends in place: `elements` starts empty and is never cleared.
      elements?.append(input)
      return .proceed
    }
  }

  /// Shows the number of elements collected so far.
  override var customMirror: Mirror {
    let children: [Mirror.Child] = [("count", currentResult?.count ?? 0)]
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }
}

/// The subscription of `collect(_:)`, in Combine's shape.
///
/// It buffers values until it holds `count` of them, then publishes the array; every
/// downstream demand of n asks upstream for n × `count` values. Combine's version is
/// unusually loose at the edges, and this follows it:
/// - Values before the subscription, or after the end, are ignored.
/// - Every completion reaches downstream, even one before the subscription, after a cancel
///   or after another completion; a finish first publishes what is buffered, a failure
///   drops it.
/// - A cancel before the subscription does nothing.
/// It keeps its downstream for its whole life.
///
/// - Note: Thread-safe. The lock guards the ``Lifecycle`` and its buffer; downstream and upstream are called
///   without it.
private final class CollectByCountSubscription<
  Element, UpstreamFailure: Error, Downstream: Subscriber
>: Guarded<Lifecycle<[Element]>>, Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == [Element], Downstream.Failure == UpstreamFailure {
  /// The upstream's value type.
  typealias Input = Element
  /// The upstream's failure type, which is downstream's.
  typealias Failure = UpstreamFailure

  /// The subscriber, held for this object's whole life as in Combine.
  private let downstream: Downstream
  /// The number of values in each published array.
  private let count: Int

  /// Creates the subscription for `downstream`, publishing arrays of `count` values.
  init(downstream: Downstream, count: Int) {
    self.downstream = downstream
    self.count = count
    // The machine is the values collected since the last published array.
    super.init(state: Lifecycle([]))
  }

  /// Takes the first subscription and hands itself downstream; any later subscription,
  /// or one after the end, is cancelled.
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  /// Buffers the value; a full buffer is published, and downstream's new demand is
  /// scaled to values.
  func receive(_ input: Element) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isSubscribed else {
      lock.unlock()
      return .none
    }
    stateAssumingLocked.machine.append(input)
    guard stateAssumingLocked.machine.count == count else {
      lock.unlock()
      return .none
    }
    let full = stateAssumingLocked.machine
    stateAssumingLocked.machine = []
    lock.unlock()
    return downstream.receive(full) * count
  }

  /// Publishes what is buffered on a finish, then passes the completion on. As in
  /// Combine, it does so whatever state the subscription is in.
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    _ = stateAssumingLocked.end()
    let rest = stateAssumingLocked.machine
    stateAssumingLocked.machine = []
    lock.unlock()
    if case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
    downstream.receive(completion: completion)
  }

  /// Asks upstream for `count` values per array demanded; before the subscription, or
  /// after the end, the demand goes nowhere.
  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    currentUpstream()?.request(demand * count)
  }

  /// Drops the buffer and cancels upstream once; a cancel before the subscription does
  /// nothing.
  func cancel() {
    terminate { $0 = [] }?.cancel()
  }

  /// The operator's name, as Combine spells it.
  var description: String { "CollectByCount" }

  /// Shows the downstream, the upstream subscription, the buffer and the count, as
  /// Combine does.
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("upstreamSubscription", stateAssumingLocked.subscription as Any),
      ("buffer", stateAssumingLocked.machine), ("count", count),
    ]
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }

  /// The operator's name.
  var playgroundDescription: Any { description }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}
