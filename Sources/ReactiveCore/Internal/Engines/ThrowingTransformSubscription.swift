/// The engine of `tryScan`, in Combine's shape: each value is transformed by a throwing
/// closure and passed on; a throw cancels upstream and fails downstream. (`tryMap` has the
/// same shape in ``TryMapSubscription``, with its transform kept apart.)
///
/// Combine's quirks are kept on purpose, since code ported from Combine can observe them:
/// - values are transformed and passed on whatever the state (before the subscription,
///   and after a cancel or a throw);
/// - a cancel before the subscription arrives does nothing, so the late subscription is
///   kept;
/// - a request for zero values is no request (it is passed upstream as asked).
///
/// The closure is not kept here: a subclass keeps it in the subscriber it hands upstream
/// (as ``TryMapSubscription`` does), which passes each value in with
/// ``receive(transformed:)``, so a subscriber that keeps this subscription after the end
/// keeps no closure. A subclass overrides ``description`` and, when it keeps state,
/// ``customMirror``.
///
/// - Note: Thread-safe. `lock` guards the status (the state); the transform and
///   downstream run without it, serially as upstream calls them.
class ThrowingTransformSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  Guarded<Lifecycle<Void>>, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == any Error {
  let downstream: Downstream

  init(downstream: Downstream) {
    self.downstream = downstream
    super.init(state: Lifecycle())
  }

  var description: String { fatalError("abstract") }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  /// Passes on the value `transformed` gives, or ends on its throw.
  func receive(transformed: () throws -> Downstream.Input) -> Subscribers.Demand {
    do {
      return downstream.receive(try transformed())
    } catch {
      transformThrew(error)
      return .none
    }
  }

  /// Ends on a throw: cancels upstream and fails downstream, once, while subscribed.
  func transformThrew(_ error: any Error) {
    guard let subscription = terminate() else { return }
    subscription.cancel()
    downstream.receive(completion: .failure(error))
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard terminate() != nil else { return }
    downstream.receive(completion: completion.mapError { $0 as any Error })
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { $0.subscription }?.request(demand)
  }

  func cancel() {
    guard let subscription = terminate() else { return }
    subscription.cancel()
  }
}

/// The subscription of `tryMap(_:)`: the downstream's subscription, with the status and
/// the subscriber; the transform lives in the ``UpstreamSide`` that upstream holds.
///
/// Combine's tryMap transforms every value upstream sends it, even after a cancel or a
/// throw (`testTryMapCancel` in the OpenCombine fork), so the transform lives as long as
/// upstream can send: in the subscriber upstream holds, not in this subscription. A
/// subscriber that keeps this subscription after the end (a cycle, as this keeps its
/// subscriber as Combine's does) then keeps no closure: the transform goes when upstream
/// lets go of its subscriber, at the cancel or the completion.
///
/// - Note: Thread-safe. `lock` guards the status; the transform and downstream run
///   without it, serially as upstream calls them.
final class TryMapSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  Guarded<Lifecycle<Void>>, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == any Error {
  private let downstream: Downstream

  private init(downstream: Downstream) {
    self.downstream = downstream
    super.init(state: Lifecycle())
  }

  /// The subscriber to hand upstream for `downstream`, transforming with `map`.
  static func subscriber(
    for downstream: Downstream, map: @escaping (Input) throws -> Downstream.Input
  ) -> UpstreamSide {
    UpstreamSide(owner: TryMapSubscription(downstream: downstream), map: map)
  }

  var description: String { "TryMap" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }

  fileprivate func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  fileprivate func receive(mapped: () throws -> Downstream.Input) -> Subscribers.Demand {
    do {
      return downstream.receive(try mapped())
    } catch {
      transformThrew(error)
      return .none
    }
  }

  /// Combine's tryMap fails downstream on every throw, and cancels upstream if it still
  /// has it.
  private func transformThrew(_ error: any Error) {
    let subscription = withLock { $0.end() }
    subscription?.cancel()
    downstream.receive(completion: .failure(error))
  }

  fileprivate func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard terminate() != nil else { return }
    downstream.receive(completion: completion.mapError { $0 as any Error })
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { $0.subscription }?.request(demand)
  }

  func cancel() {
    guard let subscription = terminate() else { return }
    subscription.cancel()
  }

  /// The subscriber upstream holds: it carries the transform, and stands for the
  /// subscription (its identifier, description and mirror). It is a subscription too,
  /// forwarding to its owner, because Combine's subscriber is (the OpenCombine fork's
  /// `testTryMapRequestBeforeSubscription` and `testTryMapCancelBeforeSubscription` use
  /// upstream's subscriber as the subscription).
  struct UpstreamSide: OwnerForwardingSubscriber, Subscription {
    typealias Failure = UpstreamFailure

    let owner: TryMapSubscription
    let map: (Input) throws -> Downstream.Input

    func receive(subscription: any Subscription) { owner.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { owner.receive { try map(input) } }
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
      owner.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) { owner.request(demand) }
    func cancel() { owner.cancel() }
  }
}

/// The subscription of `tryScan(_:_:)`: it keeps the running result, and shows it with
/// its status in its mirror; the closure lives in the ``UpstreamSide`` that upstream
/// holds, so it goes when upstream lets go (at the cancel, the throw or the completion),
/// as `tryMap`'s transform does.
final class TryScanSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  ThrowingTransformSubscription<Input, UpstreamFailure, Downstream>, @unchecked Sendable
where Downstream.Failure == any Error {
  // Touched only by `receive(_:scanningWith:)`, which upstream calls serially (the
  // Subscriber contract), so it needs no lock.
  private var result: Downstream.Input

  private init(downstream: Downstream, initialResult: Downstream.Input) {
    result = initialResult
    super.init(downstream: downstream)
  }

  /// The subscriber to hand upstream for `downstream`, folding with `nextPartialResult`.
  static func subscriber(
    for downstream: Downstream, initialResult: Downstream.Input,
    nextPartialResult: @escaping (Downstream.Input, Input) throws -> Downstream.Input
  ) -> UpstreamSide {
    UpstreamSide(
      owner: TryScanSubscription(downstream: downstream, initialResult: initialResult),
      nextPartialResult: nextPartialResult)
  }

  fileprivate func receive(
    _ input: Input,
    scanningWith nextPartialResult: (Downstream.Input, Input) throws -> Downstream.Input
  ) -> Subscribers.Demand {
    receive(transformed: {
      result = try nextPartialResult(result, input)
      return result
    })
  }

  /// Combine's tryScan passes the upstream's completion on every time it comes while
  /// subscribed, even after a throw ended the subscription for values.
  override func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard withLock({ $0.subscription }) != nil else { return }
    downstream.receive(completion: completion.mapError { $0 as any Error })
  }

  override var description: String { "TryScan" }

  override var customMirror: Mirror {
    let status = withLock { $0.status }
    return Mirror(
      self, children: ["downstream": downstream, "status": status, "result": result],
      ancestorRepresentation: .suppressed)
  }

  /// The subscriber upstream holds: it carries the closure, stands for the subscription
  /// and is a subscription too, forwarding to its owner, as ``TryMapSubscription``'s is.
  struct UpstreamSide: OwnerForwardingSubscriber, Subscription {
    typealias Failure = UpstreamFailure

    let owner: TryScanSubscription
    let nextPartialResult: (Downstream.Input, Input) throws -> Downstream.Input

    func receive(subscription: any Subscription) { owner.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
      owner.receive(input, scanningWith: nextPartialResult)
    }
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
      owner.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) { owner.request(demand) }
    func cancel() { owner.cancel() }
  }
}
