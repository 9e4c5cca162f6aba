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
/// The judgement is let go when the subscription ends (a finish, a failure, the judgement
/// ending it, or a cancel), so that what the operator's closure captures is released even
/// while the subscriber keeps this subscription.
///
/// - Note: Thread-safe. `lock` guards `state`; it is never held while calling upstream,
///   downstream or ``judge``, nor while releasing it. `phase` mirrors `state` so that a
///   value passes without taking the lock, and carries a `judging` bit while a value is
///   being judged: whoever ends the subscription releases `judge` when that bit is clear,
///   and the judging value releases it when the end came while it ran (a cancel from
///   another thread, or from inside the judgement), so `judge` is never read and cleared
///   at once.
@usableFromInline
final class FilteringSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  @usableFromInline
  typealias Failure = UpstreamFailure
  @usableFromInline
  typealias Step = OperatorStep<Downstream.Input, Downstream.Failure>

  @usableFromInline
  enum State {
    case awaitingSubscription
    case connected(any Subscription)
    case completed
  }

  /// `state`'s case, readable without the lock.
  @usableFromInline
  enum Phase: UInt8 {
    case awaitingSubscription, connected, completed
  }

  /// Set in `phase` (beside `connected`, or beside `completed` if the end came meanwhile)
  /// while a value is being judged.
  @usableFromInline
  static var judging: UInt8 { 4 }

  /// The lock that guards `state`.
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var state = State.awaitingSubscription
  /// Stored (with release ordering) under the lock whenever `state` changes case.
  @usableFromInline
  let phase = Atomic<UInt8>(Phase.awaitingSubscription.rawValue)
  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let description: String
  /// Decides what to do with one value: emit it (or a transformed one), drop it, finish,
  /// or fail; `nil` once the subscription has ended. Read only by a value that set the
  /// `judging` bit, cleared only by the one owner the bit designates (see the type's note).
  @usableFromInline
  @exclusivity(unchecked)
  var judge: ((Input) -> Step)?
  /// Mirror children beyond the downstream, for operators that keep state.
  @usableFromInline
  let extraMirrorChildren: (() -> [Mirror.Child])?

  @inlinable
  init(
    _ name: String, downstream: Downstream,
    extraMirrorChildren: (() -> [Mirror.Child])? = nil,
    judge: @escaping (Input) -> Step
  ) {
    description = name
    self.downstream = downstream
    self.judge = judge
    self.extraMirrorChildren = extraMirrorChildren
  }

  @usableFromInline
  var customMirror: Mirror {
    Mirror(
      self, children: [("downstream", downstream)] + (extraMirrorChildren?() ?? []),
      ancestorRepresentation: .suppressed)
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  /// Moves `state` and `phase` together. Call with the lock held.
  @inlinable
  func enter(_ next: State) {
    state = next
    let nextPhase: Phase =
      switch next {
      case .awaitingSubscription: .awaitingSubscription
      case .connected: .connected
      case .completed: .completed
      }
    phase.store(nextPhase.rawValue, ordering: .releasing)
  }

  /// Moves `state` to `.completed`. Call with the lock held; release what it returns after
  /// unlocking.
  ///
  /// - Returns: the judgement, if this end is the one to let it go: the subscription had
  ///   not ended yet and no value is being judged (a judging value lets it go itself).
  @inlinable
  func complete() -> ((Input) -> Step)? {
    state = .completed
    let ended = Phase.completed.rawValue
    var observed = phase.load(ordering: .relaxed)
    while true {
      // Keep the judging bit, so that the judging value sees the end when it is done.
      let (exchanged, original) = phase.compareExchange(
        expected: observed, desired: ended | (observed & Self.judging),
        ordering: .acquiringAndReleasing)
      if exchanged { break }
      observed = original
    }
    // Already ended, or a value is being judged: not this end's to let go.
    guard observed & Self.judging == 0, observed != ended else { return nil }
    return judge.take()
  }

  // MARK: Subscriber

  @usableFromInline
  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = state else {
      lock.unlock()
      subscription.cancel()
      return
    }
    enter(.connected(subscription))
    lock.unlock()
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let connected = Phase.connected.rawValue
    let claimed = connected | Self.judging
    let step: Step
    switch phase.load(ordering: .acquiring) {
    case connected:
      // A cancel from another thread between the load and here leaves nothing to judge.
      guard
        phase.compareExchange(expected: connected, desired: claimed, ordering: .acquiring)
          .exchanged
      else { return .none }
      // The bit keeps `judge` in place while it runs: an end leaves it alone meanwhile.
      step = judge!(input)
      if !phase.compareExchange(
        expected: claimed, desired: connected, ordering: .acquiringAndReleasing
      ).exchanged {
        // The subscription ended while the value was judged and left the judgement to
        // this thread: nothing else touches it now.
        phase.store(Phase.completed.rawValue, ordering: .releasing)
        judge = nil
      }
    case claimed:
      // Sent from inside the judgement itself (upstream calls are serial, so this is the
      // judging thread): the outer value's claim covers this one too.
      step = judge!(input)
    case Phase.awaitingSubscription.rawValue:
      preconditionFailure("Invalid state: Received value before receiving subscription")
    default:
      return .none
    }
    switch step {
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
    switch state {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("Invalid state: Received completion before receiving subscription")
    case .completed:
      lock.unlock()
    case .connected:
      let released = complete()
      lock.unlock()
      withExtendedLifetime(released) {}
      // The downstream's failure type is the upstream's or `any Error`.
      downstream.receive(completion: completion.mapError { $0 as! Downstream.Failure })
    }
  }

  /// Ends early: cancels upstream, then completes downstream (unless a cancel came
  /// first).
  @usableFromInline
  func end(with completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard case .connected(let subscription) = state else {
      lock.unlock()
      return
    }
    let released = complete()
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription.cancel()
    downstream.receive(completion: completion)
  }

  // MARK: Subscription

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    switch state {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("Invalid state: Received request before sending subscription")
    case .completed:
      lock.unlock()
    case .connected(let subscription):
      lock.unlock()
      subscription.request(demand)
    }
  }

  @usableFromInline
  func cancel() {
    lock.lock()
    let subscription: (any Subscription)?
    if case .connected(let connected) = state {
      subscription = connected
    } else {
      subscription = nil
    }
    let released = complete()
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription?.cancel()
  }
}

/// The state of `removeDuplicates(by:)` and `tryRemoveDuplicates(by:)`: the value before
/// the current one (whether or not it was published, as in Combine).
@usableFromInline
final class PreviousValue<Value>: @unchecked Sendable {
  // Touched only from the judgement, which upstream calls serially (the Subscriber
  // contract), and read by the mirror.
  @usableFromInline
  @exclusivity(unchecked)
  var value: Value?

  @inlinable
  init() {}

  /// Stores `next` and returns the value it replaces.
  @inlinable
  func exchange(_ next: Value) -> Value? {
    defer { value = next }
    return value
  }
}
