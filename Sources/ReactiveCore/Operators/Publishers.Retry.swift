extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the
  /// number of times you specify.
  ///
  ///     let cancellable = flaky.retry(3).sink(receiveCompletion: { print($0) }) { print($0) }
  ///
  /// Outstanding demand carries over to each new subscription.
  ///
  /// - Parameter retries: The number of times to attempt to recreate the subscription.
  /// - Returns: A publisher that attempts to recreate its subscription to a failed
  ///   upstream publisher.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream
  /// publisher.
  public struct Retry<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of retry attempts to perform; `nil` retries without limit.
    public let retries: Int?

    /// Creates a publisher that attempts to recreate its subscription to a failed
    /// upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - retries: The maximum number of retry attempts to perform. If `nil`, this
    ///     publisher attempts to reconnect with the upstream publisher an unlimited number
    ///     of times.
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    /// Attaches the subscriber; a failure resubscribes while attempts remain.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: RetrySubscription(parent: self, downstream: subscriber))
    }
  }
}

/// The subscription of `retry(_:)`, in Combine's shape: on each failure while chances
/// remain it subscribes to the upstream again, carrying the outstanding demand; the
/// downstream sees one subscription throughout. A failure arriving while the upstream is
/// being subscribed again (a publisher that fails at once) is retried after that
/// subscription returns, not by recursion, so `retry(.max)` of a failing `Fail` does not
/// grow the stack.
///
/// - Note: Thread-safe. `lock` guards every variable; no upstream or downstream code runs
///   while it is held.
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private enum State {
    case ready(Publishers.Retry<Upstream>, Downstream)
    case terminal
  }

  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var state: State
  @exclusivity(unchecked)
  private var upstream: (any Subscription)?
  /// Retries left; `nil` retries for ever.
  @exclusivity(unchecked)
  private var remaining: Int?
  @exclusivity(unchecked)
  private var downstreamNeedsSubscription = true
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var isResubscribing = false
  @exclusivity(unchecked)
  private var needsResubscribe = false

  init(parent: Publishers.Retry<Upstream>, downstream: Downstream) {
    state = .ready(parent, downstream)
    remaining = parent.retries
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .ready(_, let downstream) = state, upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    let demand = self.demand
    let sendsSubscription = downstreamNeedsSubscription
    downstreamNeedsSubscription = false
    lock.unlock()
    if sendsSubscription { downstream.receive(subscription: self) }
    if demand != .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .ready(_, let downstream) = state else {
      lock.unlock()
      return .none
    }
    // Combine traps on a value nobody asked for (its demand would go negative).
    precondition(demand > .none, "API Violation: received a value without demand")
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    guard more != .none else { return .none }
    lock.lock()
    demand += more
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(more)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard case .ready(let parent, let downstream) = state else {
      lock.unlock()
      return
    }
    if case .failure = completion {
      upstream = nil
      if remaining.map({ $0 != 0 }) ?? true {
        remaining = remaining.map { $0 - 1 }
        guard !isResubscribing else {
          needsResubscribe = true
          lock.unlock()
          return
        }
        repeat {
          isResubscribing = true
          needsResubscribe = false
          lock.unlock()
          parent.upstream.receive(subscriber: self)
          lock.lock()
          isResubscribing = false
        } while needsResubscribe
        lock.unlock()
        return
      }
    }
    state = .terminal
    lock.unlock()
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard case .ready = state else {
      lock.unlock()
      return
    }
    self.demand += demand
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard case .ready = state else {
      lock.unlock()
      return
    }
    state = .terminal
    let upstream = self.upstream
    lock.unlock()
    upstream?.cancel()
  }

  var description: String { "Retry" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
