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
/// A subclass overrides ``judge(_:)`` and ``description`` (and ``customMirror`` when it
/// keeps state of its own).
///
/// - Note: Thread-safe. `lock` guards `state`; it is never held while calling upstream,
///   downstream or ``judge(_:)``. `phase` mirrors `state` so that a value passes without
///   taking the lock.
@usableFromInline
class FilteringSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
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

  @inlinable
  init(downstream: Downstream) { self.downstream = downstream }

  /// Decides what to do with one value: emit it (or a transformed one), drop it, finish,
  /// or fail.
  @usableFromInline
  func judge(_ input: Input) -> Step { fatalError("abstract") }

  @usableFromInline
  var description: String { fatalError("abstract") }

  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

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
    case .drop, .absorb:
      return .max(1)
    case .emitAndFinish(let output):
      _ = downstream.receive(output)
      end(with: .finished)
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
      enter(.completed)
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
    guard case .connected(let subscription) = state else {
      lock.unlock()
      return
    }
    enter(.completed)
    lock.unlock()
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
    enter(.completed)
    lock.unlock()
    subscription?.cancel()
  }
}

/// A ``FilteringSubscription`` whose judgement is a closure, for operators that keep no
/// state of their own to show in their mirror.
final class ClosureFilteringSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  FilteringSubscription<Input, UpstreamFailure, Downstream>, @unchecked Sendable
{
  private let name: String
  private let judgement: (Input) -> Step

  init(_ name: String, downstream: Downstream, judge: @escaping (Input) -> Step) {
    self.name = name
    judgement = judge
    super.init(downstream: downstream)
  }

  override func judge(_ input: Input) -> Step { judgement(input) }

  override var description: String { name }
}

/// The subscription of `removeDuplicates(by:)` and `tryRemoveDuplicates(by:)`: it compares
/// each value with the one before it (whether or not that one was published, as Combine
/// does) and shows that value in its mirror.
@usableFromInline
final class DeduplicatingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  FilteringSubscription<Input, UpstreamFailure, Downstream>, @unchecked Sendable
where Downstream.Input == Input {
  @usableFromInline
  let name: String
  @usableFromInline
  let isDuplicate: (Input, Input) throws -> Bool
  // Touched only by `judge`, which upstream calls serially (the Subscriber contract).
  @usableFromInline
  @exclusivity(unchecked)
  var last: Input?

  @inlinable
  init(
    _ name: String, downstream: Downstream, isDuplicate: @escaping (Input, Input) throws -> Bool
  ) {
    self.name = name
    self.isDuplicate = isDuplicate
    super.init(downstream: downstream)
  }

  @inlinable
  override func judge(_ input: Input) -> Step {
    let previous = last
    last = input
    guard let previous else { return .emit(input) }
    do {
      return try isDuplicate(previous, input) ? .drop : .emit(input)
    } catch {
      // Only the throwing variant's closure throws, and its downstream fails with
      // `any Error`.
      return .fail(error as! Downstream.Failure)
    }
  }

  @usableFromInline
  override var description: String { name }

  @usableFromInline
  override var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream, "last": last as Any])
  }
}
