extension Publisher {
  /// Omits elements from the upstream publisher until a given closure returns false,
  /// before republishing all remaining elements.
  ///
  ///     let cancellable = [1, 2, 5, 1].publisher.drop { $0 < 3 }.sink { print($0) }
  ///     // Prints "5", "1"
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value indicating whether to drop the element from the publisher's output.
  /// - Returns: A publisher that skips over elements until the provided closure returns
  ///   `false`.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Omits elements from the upstream publisher until an error-throwing closure returns
  /// false, before republishing all remaining elements.
  ///
  /// - Parameter predicate: A closure that returns whether to drop the element; it may
  ///   throw, which fails the publisher.
  /// - Returns: A publisher that skips elements until the closure returns `false`.
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryDropWhile<Self>
  {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that omits elements from an upstream publisher until a given closure
  /// returns false.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that indicates whether to drop the element.
    public let predicate: (Output) -> Bool

    /// Creates a publisher that drops elements while `predicate` holds.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; each dropped element is replaced by a request for one more.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber: DropWhileSubscription<Output, Failure, S>(
          "DropWhile", downstream: subscriber, predicate: predicate))
    }
  }

  /// A publisher that omits elements from an upstream publisher until a given
  /// error-throwing closure returns false.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that indicates whether to drop the element.
    public let predicate: (Output) throws -> Bool

    /// Creates a publisher that drops elements while a throwing `predicate` holds.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      upstream.receive(
        subscriber: DropWhileSubscription<Output, Upstream.Failure, S>(
          "TryDropWhile", downstream: subscriber, predicate: predicate))
    }
  }
}

/// The subscription of `drop(while:)` and `tryDrop(while:)`, in Combine's shape: it asks
/// the predicate until it first says no, then passes every value; anything that arrives
/// before the subscription, or after the end, is ignored, and a cancel before the
/// subscription does nothing. It keeps its downstream for its whole life and lets go of
/// the predicate when it ends.
///
/// - Note: Thread-safe. The lock guards ``State`` (`status`, `predicate`, `isDropping`);
///   the predicate and downstream run without it.
final class DropWhileSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  Guarded<Lifecycle<DropWhileSubscription<Input, UpstreamFailure, Downstream>.Machine>>, Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Input {
  typealias Failure = UpstreamFailure

  /// The operator's own state, in its ``Lifecycle`` under the lock.
  struct Machine {
    /// The predicate, released when the stream ends.
    var predicate: ((Input) throws -> Bool)?
    /// Whether values are still being dropped (the predicate has not yet said no).
    var isDropping = true
  }

  private let name: String
  private let downstream: Downstream

  init(_ name: String, downstream: Downstream, predicate: @escaping (Input) throws -> Bool) {
    self.name = name
    self.downstream = downstream
    super.init(state: Lifecycle(Machine(predicate: predicate)))
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed(let subscription) = stateAssumingLocked.status,
      let predicate = stateAssumingLocked.machine.predicate
    else {
      lock.unlock()
      return .none
    }
    let isDropping = stateAssumingLocked.machine.isDropping
    lock.unlock()
    if isDropping {
      do {
        if try predicate(input) { return .max(1) }
        withLock { $0.machine.isDropping = false }
      } catch {
        withLock { state in
          _ = state.end()
          state.machine.predicate = nil
        }
        subscription.cancel()
        // Only `tryDrop(while:)`'s predicate throws, and its downstream fails with
        // `any Error`.
        downstream.receive(completion: .failure(error as! Downstream.Failure))
        return .none
      }
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard terminate(alsoUnderLock: { $0.predicate = nil }) != nil else { return }
    // The downstream's failure type is the upstream's or `any Error`.
    downstream.receive(completion: completion.mapError { $0 as! Downstream.Failure })
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    currentUpstream()?.request(demand)
  }

  func cancel() {
    guard let subscription = terminate(alsoUnderLock: { $0.predicate = nil }) else {
      return
    }
    subscription.cancel()
  }

  var description: String { name }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
