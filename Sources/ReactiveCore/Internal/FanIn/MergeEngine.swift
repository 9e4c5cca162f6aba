/// What a ``MergeEngine`` keeps under its lock.
import Synchronization

@usableFromInline
struct MergeState<Downstream: Subscriber> {
  /// The subscriber, until the merge ends (cancelled, failed or finished).
  @usableFromInline
  var downstream: Downstream?
  /// What downstream has asked for and not yet received.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// Demand downstream asked for from inside a delivery, added once it returns.
  @usableFromInline
  var pending = Subscribers.Demand.none
  /// How many deliveries of finitely demanded values are under way.
  @usableFromInline
  var deliveries = 0
  /// Each upstream's subscription, while it runs.
  @usableFromInline
  var subscriptions: [(any Subscription)?]
  /// Whether each upstream has finished.
  @usableFromInline
  var finished: [Bool]
  /// How many upstreams have finished.
  @usableFromInline
  var finishedCount = 0
  /// One held value per upstream: the latest it sent while downstream asked for none.
  @usableFromInline
  var held: [Downstream.Input?]
  /// How many of `held` are set.
  @usableFromInline
  var heldCount = 0

  @inlinable
  init(downstream: Downstream, sides: Int) {
    self.downstream = downstream
    subscriptions = Array(repeating: nil, count: sides)
    finished = Array(repeating: false, count: sides)
    held = Array(repeating: nil, count: sides)
  }

  /// Whether every upstream has finished and nothing is held: downstream finishes.
  @inlinable
  var isDone: Bool { finishedCount == finished.count && heldCount == 0 }

  /// Ends the merge: takes out the subscriber and every upstream still running.
  @inlinable
  mutating func end() -> (Downstream?, [any Subscription]) {
    let ending = (downstream, subscriptions.compactMap { $0 })
    downstream = nil
    for index in subscriptions.indices { subscriptions[index] = nil }
    for index in held.indices { held[index] = nil }
    heldCount = 0
    return ending
  }
}

/// The engine of `merge` (`Merge` to `Merge8`) and `MergeMany`, with Combine's demand
/// rules:
///
/// - Each upstream is asked for one value (`.max(1)`) when it subscribes, or for
///   unlimited values once downstream has asked for unlimited.
/// - A value that arrives while downstream asked for none is held, one per upstream (a
///   later one replaces it); a request delivers the held values in upstream order and asks
///   each of those upstreams for one more.
/// - A delivered value asks its upstream for one more (`.max(1)`); demand downstream adds
///   from inside a delivery counts once the delivery returns.
/// - Downstream finishes once every upstream has finished and nothing is held; the first
///   failure cancels every upstream (the failing one too) and goes downstream.
/// - A request of `.none` is ignored, as Combine does.
///
/// Deliveries to downstream are serialized by a recursive lock (another thread waits, a
/// re-entrant send from inside a delivery nests), as in Combine.
///
/// - Invariant: `lock` (from ``Guarded``) guards ``MergeState``; `delivery` is held only
///   while downstream runs, and `lock` is never held while an upstream or the downstream
///   runs. `ended` turns true, once, before the completion is delivered, so a value that
///   waited for that delivery on another thread is dropped.
@usableFromInline
final class MergeEngine<Downstream: Subscriber>: Guarded<MergeState<Downstream>>, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  @usableFromInline
  let delivery = RecursiveLock()
  @usableFromInline
  let ended = Atomic<Bool>(false)

  /// Creates the engine for `sides` upstreams.
  @inlinable
  init(downstream: Downstream, sides: Int) {
    super.init(state: MergeState(downstream: downstream, sides: sides))
  }

  /// Subscribes the downstream, then, through `attach`, every upstream in order.
  @inlinable
  func start(_ downstream: Downstream, attach: (MergeEngine) -> Void) {
    downstream.receive(subscription: self)
    if withLock({ $0.subscriptions.isEmpty }) { finishIfDone() }
    attach(self)
  }

  /// Subscribes to one upstream as side `index`.
  @inlinable
  func attach<Upstream: Publisher>(_ upstream: Upstream, as index: Int)
  where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    upstream.receive(subscriber: Side(parent: self, index: index))
  }

  @usableFromInline
  var description: String { "Merge" }

  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  var playgroundDescription: Any { description }

  // MARK: Upstream events

  @inlinable
  func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    lock.lock()
    guard stateAssumingLocked.downstream != nil, stateAssumingLocked.subscriptions[index] == nil,
      !stateAssumingLocked.finished[index]
    else {
      lock.unlock()
      return subscription.cancel()
    }
    stateAssumingLocked.subscriptions[index] = subscription
    let demand: Subscribers.Demand = stateAssumingLocked.demand == .unlimited ? .unlimited : .max(1)
    lock.unlock()
    subscription.request(demand)
  }

  @inlinable
  func sideReceived(_ value: Downstream.Input, _ index: Int) -> Subscribers.Demand {
    lock.lock()
    guard let downstream = stateAssumingLocked.downstream else {
      lock.unlock()
      return .none
    }
    if stateAssumingLocked.demand == .unlimited {
      lock.unlock()
      let acquired = delivery.enter()
      if !ended.load(ordering: .acquiring) { _ = downstream.receive(value) }
      delivery.exit(acquired)
      return .none
    }
    if stateAssumingLocked.demand == .none {
      if stateAssumingLocked.held[index] == nil { stateAssumingLocked.heldCount += 1 }
      stateAssumingLocked.held[index] = value
      lock.unlock()
      return .none
    }
    stateAssumingLocked.demand -= 1
    stateAssumingLocked.deliveries += 1
    lock.unlock()
    let acquired = delivery.enter()
    let more = ended.load(ordering: .acquiring) ? .none : downstream.receive(value)
    delivery.exit(acquired)
    lock.lock()
    stateAssumingLocked.deliveries -= 1
    stateAssumingLocked.demand += more + stateAssumingLocked.pending
    stateAssumingLocked.pending = .none
    lock.unlock()
    return .max(1)
  }

  @inlinable
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    switch completion {
    case .finished:
      lock.lock()
      stateAssumingLocked.subscriptions[index] = nil
      if !stateAssumingLocked.finished[index] {
        stateAssumingLocked.finished[index] = true
        stateAssumingLocked.finishedCount += 1
      }
      lock.unlock()
      finishIfDone()
    case .failure:
      // As Combine does: every upstream, the failing one too, is cancelled first.
      let (downstream, subscriptions) = withLock { $0.end() }
      guard let downstream else { return }
      for subscription in subscriptions { subscription.cancel() }
      deliver(completion, to: downstream)
    }
  }

  /// Finishes downstream if every upstream has finished and nothing is held.
  @inlinable
  func finishIfDone() {
    let (downstream, subscriptions) = withLock { state in
      state.isDone ? state.end() : (nil, [])
    }
    guard let downstream else { return }
    for subscription in subscriptions { subscription.cancel() }
    deliver(.finished, to: downstream)
  }

  @inlinable
  func deliver(_ completion: Subscribers.Completion<Downstream.Failure>, to downstream: Downstream)
  {
    let acquired = delivery.enter()
    ended.store(true, ordering: .releasing)
    downstream.receive(completion: completion)
    delivery.exit(acquired)
  }

  // MARK: Downstream requests

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard let downstream = stateAssumingLocked.downstream, demand != .none,
      stateAssumingLocked.demand != .unlimited
    else {
      return lock.unlock()
    }
    if stateAssumingLocked.deliveries > 0 {
      stateAssumingLocked.pending += demand
      return lock.unlock()
    }
    if demand == .unlimited {
      stateAssumingLocked.demand = .unlimited
      let values = takeHeldLocked(upTo: .unlimited)
      let subscriptions = stateAssumingLocked.subscriptions.compactMap { $0 }
      lock.unlock()
      for (value, _) in values {
        let acquired = delivery.enter()
        if !ended.load(ordering: .acquiring) { _ = downstream.receive(value) }
        delivery.exit(acquired)
      }
      for subscription in subscriptions { subscription.request(.unlimited) }
      finishIfDone()
      return
    }
    stateAssumingLocked.demand += demand
    let values = takeHeldLocked(upTo: stateAssumingLocked.demand)
    stateAssumingLocked.demand -= values.count
    if !values.isEmpty { stateAssumingLocked.deliveries += 1 }
    lock.unlock()
    guard !values.isEmpty else { return }
    var more = Subscribers.Demand.none
    for (value, _) in values {
      let acquired = delivery.enter()
      if !ended.load(ordering: .acquiring) { more += downstream.receive(value) }
      delivery.exit(acquired)
    }
    lock.lock()
    stateAssumingLocked.deliveries -= 1
    stateAssumingLocked.demand += more + stateAssumingLocked.pending
    stateAssumingLocked.pending = .none
    lock.unlock()
    for (_, subscription) in values { subscription?.request(.max(1)) }
    finishIfDone()
  }

  /// Takes out at most `limit` held values in upstream order, each with its upstream's
  /// subscription. Call with the lock held.
  @inlinable
  func takeHeldLocked(upTo limit: Subscribers.Demand) -> [(Downstream.Input, (any Subscription)?)] {
    guard stateAssumingLocked.heldCount > 0 else { return [] }
    var values: [(Downstream.Input, (any Subscription)?)] = []
    for index in stateAssumingLocked.held.indices where limit > values.count {
      guard let value = stateAssumingLocked.held[index] else { continue }
      stateAssumingLocked.held[index] = nil
      stateAssumingLocked.heldCount -= 1
      values.append((value, stateAssumingLocked.subscriptions[index]))
    }
    return values
  }

  @usableFromInline
  func cancel() {
    let (_, subscriptions) = withLock { $0.end() }
    for subscription in subscriptions { subscription.cancel() }
  }

  /// Subscribes to one upstream on behalf of the engine.
  @usableFromInline
  struct Side: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    @usableFromInline
    let parent: MergeEngine
    @usableFromInline
    let index: Int
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: MergeEngine, index: Int) {
      self.parent = parent
      self.index = index
    }

    @inlinable
    func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
      parent.sideReceived(input, index)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
      parent.sideCompleted(index, completion)
    }

    @usableFromInline
    var description: String { "Merge" }

    @usableFromInline
    var customMirror: Mirror {
      Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
  }
}
