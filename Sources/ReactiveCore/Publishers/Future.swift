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

  /// The lock that guards `result` and `waiting`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var result: Result<Output, Failure>?
  @exclusivity(unchecked)
  private var waiting: [FutureSubscriptionBase<Output, Failure>] = []

  /// Creates a publisher that invokes a promise closure when the publisher emits an
  /// element.
  ///
  /// - Parameter attemptToFulfill: A ``Promise`` that the publisher invokes when the
  ///   publisher emits an element or terminates with an error.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  private func fulfill(_ result: Result<Output, Failure>) {
    let targets = lock.withLock { () -> [FutureSubscriptionBase<Output, Failure>] in
      guard self.result == nil else { return [] }
      self.result = result
      defer { waiting = [] }
      return waiting
    }
    for target in targets { target.fulfill(result) }
  }

  /// Forgets a cancelled subscription that was still waiting for the result.
  fileprivate func remove(_ subscription: FutureSubscriptionBase<Output, Failure>) {
    lock.withLock { waiting.removeAll { $0 === subscription } }
  }

  /// Attaches the subscriber; it receives the result once both the result and demand are
  /// there.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = FutureSubscription(parent: self, downstream: subscriber)
    let known = lock.withLock { () -> Result<Output, Failure>? in
      if result == nil { waiting.append(subscription) }
      return result
    }
    subscriber.receive(subscription: subscription)
    if let known { subscription.fulfill(known) }
  }
}

class FutureSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
  func fulfill(_ result: Result<Output, Failure>) { fatalError("abstract") }
}

/// One subscriber's wait for a future's result.
final class FutureSubscription<Downstream: Subscriber>: FutureSubscriptionBase<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
@unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The lock that guards all three stored properties.
  private let lock = Lock()
  /// The future, until the result is delivered or the subscription is cancelled (its
  /// mirror shows it, as Combine's does).
  @exclusivity(unchecked)
  private var parent: Future<Output, Failure>?
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var hasDemand = false
  @exclusivity(unchecked)
  private var result: Result<Output, Failure>?

  init(parent: Future<Output, Failure>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  override func fulfill(_ result: Result<Output, Failure>) {
    let ready = lock.withLock { () -> Downstream? in
      self.result = result
      return takeIfReady()
    }
    guard let ready else { return }
    deliver(result, to: ready)
    // As Combine's: a result that arrives for a waiting subscriber lets go of the future
    // once delivered (the subscriber still sees it while receiving); a result already
    // there when demand comes keeps it, until the subscription goes.
    let parent = lock.withLock { self.parent.take() }
    parent?.remove(self)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let ready = lock.withLock { () -> (Downstream, Result<Output, Failure>)? in
      hasDemand = true
      guard let result, let target = takeIfReady() else { return nil }
      return (target, result)
    }
    if let (target, result) = ready { deliver(result, to: target) }
  }

  /// Must be called with the lock held.
  private func takeIfReady() -> Downstream? {
    guard hasDemand || result.map({ if case .failure = $0 { true } else { false } }) == true,
      result != nil
    else { return nil }
    defer { downstream = nil }
    return downstream
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
    let released = lock.withLock { () -> (Downstream?, Future<Output, Failure>?) in
      defer {
        downstream = nil
        parent = nil
      }
      return (downstream, parent)
    }
    released.1?.remove(self)
  }

  var description: String { "Future" }

  /// Combine's children: the future (as parent and as subject), the subscriber, and
  /// whether it has asked for the value.
  var customMirror: Mirror {
    let (parent, downstream, hasDemand) = lock.withLock {
      (self.parent, self.downstream, self.hasDemand)
    }
    return Mirror(
      self,
      children: [
        "parent": parent as Any, "downstream": downstream as Any, "hasAnyDemand": hasDemand,
        "subject": parent as Any,
      ])
  }
  var playgroundDescription: Any { description }
}
