extension Publisher {
  /// Replaces an empty stream with the provided element.
  ///
  ///     let cancellable = Empty<Int, Never>().replaceEmpty(with: 0).sink { print($0) }
  ///     // Prints "0"
  ///
  /// - Parameter output: An element to emit when the upstream publisher finishes without
  ///   emitting any elements.
  /// - Returns: A publisher that replaces an empty stream with the provided output element.
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces an empty stream with a provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The element to deliver when the upstream publisher finishes without delivering any
    /// elements.
    public let output: Upstream.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces an empty stream with `output`.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber. As in Combine, upstream is asked for everything once
    /// the subscriber has its subscription, and the replacement waits for downstream's
    /// first request.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: ReplaceEmptySubscription(downstream: subscriber, output: output))
    }
  }
}

/// The subscription of `replaceEmpty(with:)`, in Combine's shape.
///
/// Once downstream has its subscription, upstream is asked for `.unlimited` (on top of
/// whatever downstream asked for, which is forwarded too). Values pass through. If
/// upstream finishes without a value, the replacement and `.finished` go out once
/// downstream has asked for anything, at once if it already has. Values and completions
/// before the subscription, or after the end, are ignored; a cancel before the
/// subscription does nothing. It keeps its downstream for its whole life.
///
/// - Note: Thread-safe. The lock guards ``State`` (`status` and the flags); upstream and downstream are
///   called without it.
private final class ReplaceEmptySubscription<Downstream: Subscriber>:
  ReplacementSubscription<ReplaceEmptySubscription<Downstream>.Machine, Downstream>, Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  /// The upstream's value type, which is downstream's.
  typealias Input = Downstream.Input
  /// The upstream's failure type, which is downstream's.
  typealias Failure = Downstream.Failure

  /// The operator's own state, in its ``Lifecycle`` under the lock.
  struct Machine: ReplacementMachine {
    /// Whether upstream has sent a value, so no replacement is due.
    var receivedValue = false
    /// Whether downstream has asked for anything.
    var downstreamRequested = false
    /// Whether upstream finished empty before downstream asked: the replacement is owed.
    var replacementPending = false
  }

  /// Takes the first subscription, hands itself downstream, then asks upstream for
  /// everything; any later subscription is cancelled.
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
    // Combine asks even if downstream cancelled from `receive(subscription:)`.
    subscription.request(.unlimited)
  }

  /// Passes the value on and notes that no replacement is due.
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isSubscribed else {
      lock.unlock()
      return .none
    }
    stateAssumingLocked.machine.receivedValue = true
    lock.unlock()
    return downstream.receive(input)
  }

  /// Passes the completion on; a finish without values first publishes the replacement,
  /// or owes it until downstream asks.
  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard stateAssumingLocked.terminate() != nil else {
      lock.unlock()
      return
    }
    guard !stateAssumingLocked.machine.receivedValue, case .finished = completion else {
      lock.unlock()
      downstream.receive(completion: completion)
      return
    }
    guard stateAssumingLocked.machine.downstreamRequested else {
      stateAssumingLocked.machine.replacementPending = true
      lock.unlock()
      return
    }
    lock.unlock()
    publishReplacement()
  }

  /// Publishes an owed replacement, or forwards the demand upstream.
  func request(_ demand: Subscribers.Demand) {
    request(demand) { $0.downstreamRequested = true }
  }

  /// Cancels upstream once; a cancel before the subscription does nothing.
  func cancel() {
    guard let subscription = terminate() else { return }
    subscription.cancel()
  }

  /// The operator's name, as Combine spells it.
  var description: String { "ReplaceEmpty" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  /// The operator's name.
  var playgroundDescription: Any { description }
}

extension Publishers.ReplaceEmpty: Equatable
where Upstream: Equatable, Upstream.Output: Equatable {}
