extension Publisher {
  /// Republishes elements up to the specified maximum count.
  ///
  ///     let cancellable = (1...9).publisher.prefix(2).sink { print($0) }
  ///     // Prints "1", "2"
  ///
  /// - Parameter maxLength: The maximum number of elements to republish.
  /// - Returns: A publisher that publishes up to the specified number of elements before
  ///   completing.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    precondition(maxLength >= 0, "prefix(_:) needs a length of zero or more")
    return output(in: 0..<maxLength)
  }

  /// Publishes a specific element, indicated by its index in the sequence of published
  /// elements.
  ///
  /// - Parameter index: The index that indicates the element to publish.
  /// - Returns: A publisher that publishes a specific indexed element.
  public func output(at index: Int) -> Publishers.Output<Self> {
    output(in: index...index)
  }

  /// Publishes elements specified by their range in the sequence of published elements.
  ///
  ///     let cancellable = (0...9).publisher.output(in: 3...5).sink { print($0) }
  ///     // Prints "3", "4", "5"
  ///
  /// - Parameter range: A range that indicates which elements to publish.
  /// - Returns: A publisher that publishes elements specified by a range.
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self>
  where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }
}

extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of
  /// published elements.
  public struct Output<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// The range of elements to publish.
    public let range: CountableRange<Int>

    /// Creates a publisher that publishes elements specified by a range.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - range: The range of elements to publish.
    public init(upstream: Upstream, range: CountableRange<Int>) {
      precondition(range.lowerBound >= 0, "the range must start at zero or later")
      // Reachable only through `Range(uncheckedBounds:)`; Combine traps on it too.
      precondition(range.upperBound >= 0, "the range must end at zero or later")
      self.upstream = upstream
      self.range = range
    }

    /// Attaches the subscriber; after the range's last value upstream is cancelled and
    /// downstream finished.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: OutputSubscription(downstream: subscriber, range: range))
    }
  }
}

/// The subscription of `output(at:)`, `output(in:)` and `prefix(_:)`, in Combine's shape.
///
/// Values before the range are each replaced by a request for one more; values in it pass;
/// the range's last value cancels upstream and finishes downstream. Like Combine, it
/// counts every value it is sent, even one before the subscription or after the end, and
/// passes those that fall in the range: only the completion and the cancel look at the
/// status. It keeps its downstream for its whole life.
///
/// - Note: Thread-safe. The lock guards ``State`` (`status`); `remainingUntilStart` and `remainingCount`
///   are touched only by `receive(_:)`, which upstream calls serially.
private final class OutputSubscription<Downstream: Subscriber>:
  Guarded<Lifecycle<Void>>, Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  /// The upstream's value type, which is downstream's.
  typealias Input = Downstream.Input
  /// The upstream's failure type, which is downstream's.
  typealias Failure = Downstream.Failure

  /// The subscriber, held for this object's whole life as in Combine.
  private let downstream: Downstream

  // The two counters are not lock-guarded: only `receive(_:)` touches them, and upstream
  // never overlaps its calls (Combine's contract). Private, so the optimiser sees every
  // access and checks exclusivity statically.
  /// How many values are still to drop before the range starts.
  private var remainingUntilStart: Int
  /// How many values of the range are still to pass.
  private var remainingCount: Int

  /// Creates the subscription for `downstream`, passing the values indexed by `range`.
  init(downstream: Downstream, range: CountableRange<Int>) {
    self.downstream = downstream
    remainingUntilStart = range.lowerBound
    remainingCount = range.count
    super.init(state: Lifecycle())
  }

  /// Takes the first subscription and hands itself downstream; any later subscription is
  /// cancelled.
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  /// Drops the value (asking for another), or passes it and ends the stream after the
  /// range's last value.
  func receive(_ input: Input) -> Subscribers.Demand {
    if remainingUntilStart > 0 {
      remainingUntilStart -= 1
      return .max(1)
    }
    guard remainingCount > 0 else {
      // Only an empty range, or an upstream that ignored the cancel, gets here.
      finish()
      return .none
    }
    remainingCount -= 1
    let demand = downstream.receive(input)
    // Combine finishes right after the range's last value, without waiting for another
    // (OpenCombine waits; its suite passes either way).
    if remainingCount == 0 { finish() }
    return demand
  }

  /// Cancels upstream and finishes downstream, if subscribed and not ended yet.
  private func finish() {
    guard let subscription = terminate() else { return }
    subscription.cancel()
    downstream.receive(completion: .finished)
  }

  /// Passes the first completion after the subscription on.
  func receive(completion: Subscribers.Completion<Failure>) {
    guard terminate() != nil else { return }
    downstream.receive(completion: completion)
  }

  /// Forwards the demand upstream; before the subscription or after the end it goes
  /// nowhere.
  func request(_ demand: Subscribers.Demand) {
    currentUpstream()?.request(demand)
  }

  /// Cancels upstream once; a cancel before the subscription does nothing.
  func cancel() {
    guard let subscription = terminate() else { return }
    subscription.cancel()
  }

  /// The operator's name, as Combine spells it.
  var description: String { "Output" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  /// The operator's name.
  var playgroundDescription: Any { description }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}
