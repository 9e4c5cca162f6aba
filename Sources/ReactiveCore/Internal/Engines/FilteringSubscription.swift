import Synchronization

/// The engine of the operators that judge each value on its own and hold nothing back:
/// `tryFilter`, `tryCompactMap`, `prefix(while:)`, `tryPrefix(while:)`,
/// `removeDuplicates` and `tryRemoveDuplicates`.
///
/// It follows Combine's shape for these operators:
/// - It is both the upstream's subscriber and the downstream's subscription, and it holds
///   its downstream for its whole life.
/// - Demand passes straight upstream; a dropped value asks upstream for one more.
/// - Misuse that Combine traps on traps here too: a value, a completion or a request
///   before the subscription, and a request for zero values.
/// - A cancel before the subscription arrives ends it, so the late subscription is
///   cancelled.
///
/// Each operator hands it a judgement closure (and, when it keeps state of its own, the
/// extra mirror children to show). It is one final class, specialised with the operator
/// for the caller's types, so a value costs one closure call and no dynamic dispatch.
///
/// The judgement lives in the subscriber handed upstream (``UpstreamSide``), not in this
/// subscription, as `tryMap`'s transform does (``TryMapSubscription``): a subscriber that
/// keeps this subscription after the end keeps no closure, and the judgement goes when
/// upstream lets go of its subscriber (at the cancel, the finish or the failure). A value
/// reads it from an immutable field, with no atomic claim and no retain.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards its ``Lifecycle``; it is never held while
///   calling upstream, downstream or the judgement. `phase` mirrors the lifecycle's status
///   so that a value passes without taking the lock.
@usableFromInline
final class FilteringSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  Guarded<Lifecycle<Void>>, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Step = OperatorStep<Downstream.Input, Downstream.Failure>

  /// The lifecycle's status, readable without the lock.
  @usableFromInline
  enum Phase: UInt8 {
    case awaitingSubscription, connected, completed
  }

  /// Stored (with release ordering) under the lock whenever the lifecycle moves.
  @usableFromInline
  let phase = Atomic<UInt8>(Phase.awaitingSubscription.rawValue)
  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let description: String
  /// Mirror children beyond the downstream, for operators that keep state.
  @usableFromInline
  let extraMirrorChildren: (() -> [Mirror.Child])?

  @inlinable
  init(
    _ name: String, downstream: Downstream,
    extraMirrorChildren: (() -> [Mirror.Child])?
  ) {
    description = name
    self.downstream = downstream
    self.extraMirrorChildren = extraMirrorChildren
    super.init(state: Lifecycle())
  }

  /// The subscriber to hand upstream for `downstream`, judging each value with `judge`.
  @inlinable
  static func subscriber(
    _ name: String, downstream: Downstream,
    extraMirrorChildren: (() -> [Mirror.Child])? = nil,
    judge: @escaping (Input) -> Step
  ) -> UpstreamSide {
    UpstreamSide(
      owner: FilteringSubscription(
        name, downstream: downstream, extraMirrorChildren: extraMirrorChildren),
      judge: judge)
  }

  @usableFromInline
  var customMirror: Mirror {
    Mirror(
      self, children: [("downstream", downstream)] + (extraMirrorChildren?() ?? []),
      ancestorRepresentation: .suppressed)
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  /// Publishes the lifecycle's new status to `phase`. Call with the lock held, right
  /// after moving the lifecycle.
  @inlinable
  func publishPhase() {
    let nextPhase: Phase =
      switch stateAssumingLocked.status {
      case .awaitingSubscription: .awaitingSubscription
      case .subscribed: .connected
      // Never entered here: no completion of this engine waits on a scheduler.
      case .pendingTerminal, .terminal: .completed
      }
    phase.store(nextPhase.rawValue, ordering: .releasing)
  }

  // MARK: Upstream's events (through the UpstreamSide)

  @usableFromInline
  func receive(subscription: any Subscription) {
    lock.lock()
    guard stateAssumingLocked.adopt(subscription) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    publishPhase()
    lock.unlock()
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Input, judgedBy judge: (Input) -> Step) -> Subscribers.Demand {
    switch Phase(rawValue: phase.load(ordering: .acquiring)) {
    case .awaitingSubscription?:
      preconditionFailure("Invalid state: Received value before receiving subscription")
    case .completed?, nil:
      return .none
    case .connected?:
      break
    }
    switch judge(input) {
    case .emit(let output):
      return downstream.receive(output)
    case .drop:
      return .max(1)
    case .finish:
      end(with: .finished)
    case .fail(let failure):
      end(with: .failure(failure))
    }
    return .none
  }

  @usableFromInline
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    switch stateAssumingLocked.status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("Invalid state: Received completion before receiving subscription")
    case .pendingTerminal, .terminal:
      lock.unlock()
    case .subscribed:
      _ = stateAssumingLocked.terminate()
      publishPhase()
      lock.unlock()
      // The downstream's failure type is the upstream's or `any Error`.
      downstream.receive(completion: completion.mapError { $0 as! Downstream.Failure })
    }
  }

  /// Ends early: cancels upstream, then completes downstream (unless a cancel came
  /// first).
  @usableFromInline
  func end(with completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard let subscription = stateAssumingLocked.terminate() else {
      lock.unlock()
      return
    }
    publishPhase()
    lock.unlock()
    subscription.cancel()
    downstream.receive(completion: completion)
  }

  // MARK: Subscription

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    switch stateAssumingLocked.status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("Invalid state: Received request before sending subscription")
    case .pendingTerminal, .terminal:
      lock.unlock()
    case .subscribed(let subscription):
      lock.unlock()
      subscription.request(demand)
    }
  }

  @usableFromInline
  func cancel() {
    lock.lock()
    // A cancel before the subscription ends it too, so the late subscription is cancelled.
    let subscription = stateAssumingLocked.end()
    publishPhase()
    lock.unlock()
    subscription?.cancel()
  }

  /// The subscriber upstream holds: it carries the judgement, and stands for the
  /// subscription (its identifier, description and mirror). It is a subscription too,
  /// forwarding to its owner, because Combine's subscriber is (the OpenCombine fork's
  /// request- and cancel-before-subscription tests use upstream's subscriber as the
  /// subscription).
  @usableFromInline
  struct UpstreamSide: Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    @usableFromInline
    typealias Failure = UpstreamFailure

    @usableFromInline
    let owner: FilteringSubscription
    /// Decides what to do with one value: emit it (or a transformed one), drop it,
    /// finish, or fail.
    @usableFromInline
    let judge: (Input) -> Step

    @inlinable
    init(owner: FilteringSubscription, judge: @escaping (Input) -> Step) {
      self.owner = owner
      self.judge = judge
    }

    /// The owner's identifier, as in Combine.
    @usableFromInline
    var combineIdentifier: CombineIdentifier { owner.combineIdentifier }
    @usableFromInline
    var description: String { owner.description }
    @usableFromInline
    var customMirror: Mirror { owner.customMirror }
    @usableFromInline
    var playgroundDescription: Any { owner.playgroundDescription }

    @inlinable
    func receive(subscription: any Subscription) { owner.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      owner.receive(input, judgedBy: judge)
    }
    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
      owner.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { owner.request(demand) }
    @inlinable
    func cancel() { owner.cancel() }
  }
}
