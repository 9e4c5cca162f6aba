import Synchronization

/// What a ``CombineLatestEngine`` keeps under its lock.
@usableFromInline
struct CombineLatestState<Downstream: Subscriber, Rule> {
  /// The subscriber, until the operator ends (cancelled, failed or finished).
  @usableFromInline
  var downstream: Downstream?
  /// The latest value of each upstream, and how to combine them.
  @usableFromInline
  var rule: Rule
  /// What downstream has asked for and not yet received.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// All demand downstream has asked for, handed to an upstream that subscribes late.
  @usableFromInline
  var requested = Subscribers.Demand.none
  /// Each upstream's subscription, while it runs.
  @usableFromInline
  var subscriptions: [(any Subscription)?]
  /// Whether each upstream has finished.
  @usableFromInline
  var finished: [Bool]
  /// How many upstreams have finished.
  @usableFromInline
  var finishedCount = 0

  @inlinable
  init(downstream: Downstream, rule: Rule, sides: Int) {
    self.downstream = downstream
    self.rule = rule
    subscriptions = Array(repeating: nil, count: sides)
    finished = Array(repeating: false, count: sides)
  }

  /// Ends the operator: takes out the subscriber and every upstream still running.
  @inlinable
  mutating func end() -> (Downstream?, [any Subscription]) {
    let ending = (downstream, subscriptions.compactMap { $0 })
    downstream = nil
    for index in subscriptions.indices { subscriptions[index] = nil }
    return ending
  }
}

/// The engine of `combineLatest` (2…4 upstreams), with Combine's rules:
///
/// - Downstream demand goes to every upstream as it is requested (an upstream that
///   subscribes later gets all demand requested so far); nothing is asked before.
/// - Each value replaces its upstream's latest; once every upstream has one, the
///   combination goes downstream if downstream has demand. Without demand it is not held:
///   the next value after a request sends the combination of that moment.
/// - A value that an upstream sends from inside a delivery (re-entrantly, on the delivering
///   thread) updates the latest values without a delivery of its own, so a subscriber that
///   feeds an upstream cannot loop forever. A value from another thread waits for the
///   delivery under way.
/// - Downstream finishes once every upstream has finished, whether or not each sent a
///   value; the first failure cancels the other upstreams and goes downstream.
///
/// - Invariant: `lock` (from ``Guarded``) guards ``CombineLatestState``; `delivery` is held
///   only while downstream runs; `ended` turns true, once, before the completion is
///   delivered, so a value that waited for that delivery is dropped.
@usableFromInline
final class CombineLatestEngine<Downstream: Subscriber, Rule>: Guarded<
  CombineLatestState<Downstream, Rule>
>, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
@unchecked Sendable
{
  @usableFromInline
  let delivery = RecursiveLock()
  @usableFromInline
  let ended = Atomic<Bool>(false)

  /// Creates the engine for `sides` upstreams.
  @inlinable
  init(sides: Int, rule: Rule, downstream: Downstream) {
    super.init(state: CombineLatestState(downstream: downstream, rule: rule, sides: sides))
  }

  /// Subscribes the downstream, then, through `attach`, every upstream in order.
  @inlinable
  func start(_ downstream: Downstream, attach: (CombineLatestEngine) -> Void) {
    downstream.receive(subscription: self)
    attach(self)
  }

  /// Subscribes to one upstream as side `index`; `accept` stores each of its values in the
  /// rule and returns the combination, once every upstream has a value.
  @inlinable
  func attach<Upstream: Publisher>(
    _ upstream: Upstream, as index: Int,
    accept: @escaping (inout Rule, Upstream.Output) -> Downstream.Input?
  ) where Upstream.Failure == Downstream.Failure {
    upstream.receive(subscriber: Side(parent: self, index: index, accept: accept))
  }

  @usableFromInline
  var description: String { "CombineLatest" }

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
    let demand = stateAssumingLocked.requested
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  func sideReceived<Input>(_ value: Input, accept: (inout Rule, Input) -> Downstream.Input?) {
    lock.lock()
    guard let downstream = stateAssumingLocked.downstream,
      let output = accept(&stateAssumingLocked.rule, value),
      stateAssumingLocked.demand > 0, !delivery.isHeldByCurrentThread
    else { return lock.unlock() }
    stateAssumingLocked.demand -= 1
    lock.unlock()
    let acquired = delivery.enter()
    guard !ended.load(ordering: .acquiring) else { return delivery.exit(acquired) }
    let more = downstream.receive(output)
    delivery.exit(acquired)
    if more > 0 { request(more) }
  }

  @inlinable
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    stateAssumingLocked.subscriptions[index] = nil
    if case .finished = completion {
      if !stateAssumingLocked.finished[index] {
        stateAssumingLocked.finished[index] = true
        stateAssumingLocked.finishedCount += 1
      }
      guard stateAssumingLocked.finishedCount == stateAssumingLocked.finished.count else {
        return lock.unlock()
      }
    }
    // As Combine does: a failure cancels the other upstreams, not the failing one.
    let (downstream, subscriptions) = stateAssumingLocked.end()
    lock.unlock()
    guard let downstream else { return }
    for subscription in subscriptions { subscription.cancel() }
    let acquired = delivery.enter()
    ended.store(true, ordering: .releasing)
    downstream.receive(completion: completion)
    delivery.exit(acquired)
  }

  // MARK: Downstream requests

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    lock.lock()
    guard stateAssumingLocked.downstream != nil else { return lock.unlock() }
    stateAssumingLocked.demand += demand
    stateAssumingLocked.requested += demand
    let subscriptions = stateAssumingLocked.subscriptions.compactMap { $0 }
    lock.unlock()
    for subscription in subscriptions { subscription.request(demand) }
  }

  @usableFromInline
  func cancel() {
    let (_, subscriptions) = withLock { $0.end() }
    for subscription in subscriptions { subscription.cancel() }
  }

  /// Subscribes to one upstream on behalf of the engine.
  @usableFromInline
  struct Side<Input>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    @usableFromInline
    let parent: CombineLatestEngine
    @usableFromInline
    let index: Int
    @usableFromInline
    let accept: (inout Rule, Input) -> Downstream.Input?
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(
      parent: CombineLatestEngine, index: Int,
      accept: @escaping (inout Rule, Input) -> Downstream.Input?
    ) {
      self.parent = parent
      self.index = index
      self.accept = accept
    }

    @inlinable
    func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.sideReceived(input, accept: accept)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
      parent.sideCompleted(index, completion)
    }

    @usableFromInline
    var description: String { "CombineLatest" }

    @usableFromInline
    var customMirror: Mirror {
      Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
  }
}
