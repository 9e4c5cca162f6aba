/// A publisher that emits an output to each subscriber just once, and then finishes.
///
///     let cancellable = Just(5).sink { print($0) }
///     // Prints "5"
///
/// The value is delivered when the subscriber first requests demand.
public struct Just<Output>: Publisher {
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  /// The one element that the publisher emits.
  public let output: Output

  /// Initializes a publisher that emits the specified output just once.
  ///
  /// - Parameter output: The one element that the publisher emits.
  @inlinable
  public init(_ output: Output) { self.output = output }

  /// Attaches the subscriber and emits the value on the first demand.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(
      subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Just"))
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Emits one value on the first positive demand, then finishes. Inlinable so that it is
/// specialised for the caller's subscriber.
@usableFromInline
final class SingleValueSubscription<Downstream: Subscriber>:
  Guarded<SingleValueSubscription<Downstream>.Pending?>, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  /// The value still to be sent and its subscriber: the state (guarded by the lock),
  /// `nil` once sent or cancelled.
  @usableFromInline
  struct Pending {
    /// The value to send.
    @usableFromInline
    let value: Downstream.Input
    /// The subscriber to send it to.
    @usableFromInline
    let downstream: Downstream

    /// Pairs `value` with `downstream`.
    @inlinable
    init(value: Downstream.Input, downstream: Downstream) {
      self.value = value
      self.downstream = downstream
    }
  }

  @usableFromInline
  let description: String

  /// Runs the specialised `deliver()`. Set by the initialiser, which is specialised for
  /// the caller's subscriber, because `request(_:)` is reached through `any Subscription`
  /// and so through the unspecialised witness of this generic class.
  /// Captures nothing (the subscription comes in as an argument), so it costs no
  /// allocation.
  @usableFromInline
  let deliverPending: (SingleValueSubscription) -> Void

  @inlinable
  init(value: Downstream.Input, downstream: Downstream, name: String) {
    description = name
    deliverPending = { $0.deliver() }
    super.init(state: Pending(value: value, downstream: downstream))
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    deliverPending(self)
  }

  @inlinable
  func deliver() {
    let taken = withLock { $0.take() }
    guard let taken else { return }
    _ = taken.downstream.receive(taken.value)
    taken.downstream.receive(completion: .finished)
  }

  @inlinable
  func cancel() {
    let released = withLock { $0.take() }
    _ = released
  }

  /// As in Combine, one unlabelled child: the value still to be sent (none once sent).
  @usableFromInline
  var customMirror: Mirror {
    let value = withLock { $0?.value }
    return Mirror(
      self, children: value.map { [(label: nil, value: $0 as Any)] } ?? [],
      ancestorRepresentation: .suppressed)
  }
  @usableFromInline
  var playgroundDescription: Any { description }
}
