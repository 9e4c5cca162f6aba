extension Publisher {
  /// Replaces any errors in the stream with the provided element.
  ///
  ///     let cancellable = Fail<Int, MyError>(error: .broken)
  ///         .replaceError(with: 0).sink { print($0) }
  ///     // Prints "0"
  ///
  /// - Parameter output: An element to emit when the upstream publisher fails.
  /// - Returns: A publisher that replaces an error from the upstream publisher with the
  ///   provided output element.
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces any errors in the stream with a provided element.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never
    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces a failure with `output` and finishes.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber; a replacement for a failure waits for downstream demand.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
      upstream.receive(
        subscriber: ReplaceErrorSubscription<Upstream.Failure, S>(
          downstream: subscriber, output: output))
    }
  }
}

/// The subscription of `replaceError(with:)`, in Combine's shape.
///
/// Values pass through while it counts downstream's pending demand. A failure becomes the
/// replacement and `.finished`, at once if downstream has demand pending, otherwise at
/// its next request. Like Combine, it traps on a value that arrives while no demand is
/// pending, as that upstream breaks the demand contract. Values and completions before
/// the subscription, or after the end, are ignored; a cancel before the subscription does
/// nothing. It keeps its downstream for its whole life.
///
/// - Note: Thread-safe. The lock guards ``State`` (`status`, `pendingDemand`,
///   `replacementPending`); upstream and downstream are called without it.
private final class ReplaceErrorSubscription<UpstreamFailure: Error, Downstream: Subscriber>:
  ReplacementSubscription<
    ReplaceErrorSubscription<UpstreamFailure, Downstream>.Machine, Downstream
  >,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == Never {
  /// The upstream's value type, which is downstream's.
  typealias Input = Downstream.Input
  /// The upstream's failure type.
  typealias Failure = UpstreamFailure

  /// The operator's own state, in its ``Lifecycle`` under the lock.
  struct Machine: ReplacementMachine {
    /// The demand downstream has asked for and not yet been sent.
    var pendingDemand = Subscribers.Demand.none
    /// Whether upstream failed while no demand was pending: the replacement is owed.
    var replacementPending = false
  }

  /// Takes the first subscription and hands itself downstream; any later subscription is
  /// cancelled.
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  /// Passes the value on, keeping count of the demand it uses and the demand it adds.
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isSubscribed else {
      lock.unlock()
      return .none
    }
    guard stateAssumingLocked.machine.pendingDemand != .none else {
      lock.unlock()
      // Combine's demand arithmetic traps here; Ripple's saturates, so say it outright.
      preconditionFailure("replaceError(with:) received a value without pending demand")
    }
    stateAssumingLocked.machine.pendingDemand -= 1
    lock.unlock()
    let demand = downstream.receive(input)
    if demand != .none { withLock { $0.machine.pendingDemand += demand } }
    return demand
  }

  /// Passes a finish on; turns a failure into the replacement and `.finished`, or owes
  /// them until downstream asks.
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard stateAssumingLocked.isSubscribed, !stateAssumingLocked.machine.replacementPending
    else {
      lock.unlock()
      return
    }
    if case .failure = completion, stateAssumingLocked.machine.pendingDemand == .none {
      // The replacement waits for demand; the status stays, so a cancel still reaches
      // upstream as in Combine.
      stateAssumingLocked.machine.replacementPending = true
      lock.unlock()
      return
    }
    _ = stateAssumingLocked.terminate()
    lock.unlock()
    if case .failure = completion {
      publishReplacement()
    } else {
      downstream.receive(completion: .finished)
    }
  }

  /// Publishes an owed replacement, or records the demand and forwards it upstream.
  func request(_ demand: Subscribers.Demand) {
    request(demand) { $0.pendingDemand += demand }
  }

  /// Cancels upstream once; a cancel before the subscription does nothing.
  func cancel() {
    // A cancelled subscriber is owed nothing.
    guard let subscription = terminate(alsoUnderLock: { $0.replacementPending = false }) else {
      return
    }
    subscription.cancel()
  }

  /// The operator's name, as Combine spells it.
  var description: String { "ReplaceError" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  /// The operator's name.
  var playgroundDescription: Any { description }
}

extension Publishers.ReplaceError: Equatable
where Upstream: Equatable, Upstream.Output: Equatable {}
