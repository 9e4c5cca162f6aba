extension Publisher {
  /// Omits the specified number of elements before republishing subsequent elements.
  ///
  ///     let cancellable = (1...5).publisher.dropFirst(2).sink { print($0) }
  ///     // Prints "3", "4", "5"
  ///
  /// - Parameter count: The number of elements to omit. The default is `1`.
  /// - Returns: A publisher that doesn't republish the first `count` elements.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that omits a specified number of elements before republishing later
  /// elements.
  public struct Drop<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The number of elements to drop.
    public let count: Int

    /// Creates a publisher that drops the first `count` elements.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber. As in Combine, the subscriber gets its subscription at
    /// once, and upstream is asked for the dropped elements together with the first
    /// demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let inner = DropSubscription(downstream: subscriber, count: count)
      subscriber.receive(subscription: inner)
      upstream.receive(subscriber: inner)
    }
  }
}

/// The subscription of `dropFirst(_:)`: demand asked before the upstream subscription
/// arrives waits, and is asked for together with the elements to drop.
///
/// It keeps Combine's looser shape for `dropFirst` (OpenCombine's too): the completion and
/// the cancel let go of the upstream without ending the ``Lifecycle`` (its `release()`),
/// so a subscription arriving after them is taken rather than cancelled.
///
/// - Note: Thread-safe. The lock guards the ``Lifecycle`` and the demand it carries;
///   `remaining` is touched only by upstream's calls, which it makes serially.
final class DropSubscription<Downstream: Subscriber>: Guarded<Lifecycle<Subscribers.Demand>>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream

  /// How many values are still to drop. Not lock-guarded: only upstream's calls touch it
  /// (its subscription, then its values), and upstream never overlaps them (Combine's
  /// contract). Private, so the optimiser sees every access and checks exclusivity
  /// statically.
  private var remaining: Int

  init(downstream: Downstream, count: Int) {
    self.downstream = downstream
    remaining = count
    // The machine is the demand asked for before the subscription arrived.
    super.init(state: Lifecycle(.none))
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard stateAssumingLocked.adopt(subscription) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    // Combine traps here, when the upstream subscription arrives.
    precondition(remaining >= 0, "count must not be negative")
    let demand = stateAssumingLocked.machine + remaining
    lock.unlock()
    if demand != .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    if remaining > 0 {
      remaining -= 1
      return .none
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    _ = withLock { $0.release() }
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    guard let upstream = stateAssumingLocked.subscription else {
      stateAssumingLocked.machine += demand
      lock.unlock()
      return
    }
    lock.unlock()
    upstream.request(demand)
  }

  func cancel() {
    withLock { $0.release() }?.cancel()
  }

  var description: String { "Drop" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}
