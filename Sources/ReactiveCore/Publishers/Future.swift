/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure runs once, when the future is created; every subscriber, early or late,
/// receives the same result once it has demand.
///
///     let future = Future<Int, Never> { promise in promise(.success(42)) }
///     let cancellable = future.sink { print($0) }
///     // Prints "42"
///
/// - Note: Thread-safe: the promise may be called from any thread; only its first call
///   counts.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  /// A type that represents a closure to invoke in the future, when an element or error
  /// is available.
  public typealias Promise = (Result<Output, Failure>) -> Void

  /// The lock that guards `machine`.
  private let lock = Lock()
  /// The result, or the subscriptions waiting for it; guarded by `lock`. (A public
  /// class cannot inherit ``Guarded``, which is internal.)
  private var machine = FutureStateMachine<Output, Failure>()

  /// Creates a publisher that invokes a promise closure when the publisher emits an
  /// element.
  ///
  /// - Parameter attemptToFulfill: A ``Promise`` that the publisher invokes when the
  ///   publisher emits an element or terminates with an error.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  private func fulfill(_ result: Result<Output, Failure>) {
    guard case .notify(let waiting) = lock.withLock({ machine.fulfill(result) }) else { return }
    for waiter in waiting { waiter.fulfill(result) }
  }

  /// Forgets a cancelled subscription that was still waiting for the result.
  fileprivate func remove(_ subscription: AnyObject) {
    lock.withLock { machine.remove(subscription) }
  }

  /// Attaches the subscriber; it receives the result once both the result and demand are
  /// there.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = FutureSubscription(parent: self, downstream: subscriber)
    let action = lock.withLock { machine.subscribed(subscription) }
    subscriber.receive(subscription: subscription)
    if case .fulfill(let known) = action { subscription.fulfill(known) }
  }
}

/// One subscriber's wait for a future's result.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``FutureSubscriptionStateMachine``;
///   the subscriber and the future are called once it is released.
final class FutureSubscription<Downstream: Subscriber>: Guarded<
  FutureSubscriptionStateMachine<Downstream>
>, FutureWaiter, Subscription, CustomStringConvertible, CustomReflectable,
CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  init(parent: Future<Output, Failure>, downstream: Downstream) {
    super.init(state: FutureSubscriptionStateMachine(parent: parent, downstream: downstream))
  }

  func fulfill(_ result: Result<Output, Failure>) {
    guard case .deliver(let result, let target) = withLock({ $0.resultArrived(result) }) else {
      return
    }
    deliver(result, to: target)
    // The subscriber still sees the future while receiving; it is let go afterwards.
    withLock { $0.releaseParent() }?.remove(self)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    guard case .deliver(let result, let target) = withLock({ $0.demandArrived() }) else {
      return
    }
    deliver(result, to: target)
  }

  private func deliver(_ result: Result<Output, Failure>, to target: Downstream) {
    switch result {
    case .success(let value):
      _ = target.receive(value)
      target.receive(completion: .finished)
    case .failure(let error):
      target.receive(completion: .failure(error))
    }
  }

  func cancel() {
    switch withLock({ $0.cancelled() }) {
    case .cancel(let released, let parent):
      withExtendedLifetime(released) { parent?.remove(self) }
    }
  }

  var description: String { "Future" }

  /// Combine's children: the future (as parent and as subject), the subscriber, and
  /// whether it has asked for the value.
  var customMirror: Mirror {
    let children = withLock { state -> KeyValuePairs<String, Any> in
      [
        "parent": state.parent as Any, "downstream": state.downstream as Any,
        "hasAnyDemand": state.hasDemand, "subject": state.parent as Any,
      ]
    }
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }
  var playgroundDescription: Any { description }
}
