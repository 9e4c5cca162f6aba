import ReactiveCore
import Synchronization

/// The subscription of `withLatestFrom`: downstream demand goes to the upstream; the other
/// publisher is asked for everything and only its latest value is kept. As in CombineExt,
/// the upstream is subscribed only once the other publisher has sent its first value (or
/// finished without one), so a cold upstream's values wait for something to combine with,
/// and demand asked for before then is passed on when it is.
///
/// A value takes no lock but the delivery lock: the latest value it combines with is a
/// copy kept under that lock, refreshed from the shared state only when the other side
/// has changed it since (`latestChanged`), so a value costs one lock, not two.
///
/// - Note: Thread-safe. Its box's lock guards the state; `deliveryLock` keeps deliveries to the
///   subscriber from overlapping, since the other side may complete it from its own
///   thread, and guards the copy of the latest value, which the end clears, so that no
///   value follows the completion.
@usableFromInline
final class WithLatestFromSubscription<
  Upstream: Publisher, Other: Publisher, Downstream: Subscriber
>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  /// The state both sides share.
  @usableFromInline
  struct State {
    /// The upstream publisher, kept until the end as CombineExt's subscription keeps it
    /// (a relay that only this subscription references lives until it is cancelled, and
    /// does not finish it when its owner lets go of it first).
    @usableFromInline
    var source: Upstream?
    /// Whether the other side's first value (or finish) has subscribed to `source`.
    @usableFromInline
    var startedSource = false
    @usableFromInline
    var upstream: (any Subscription)?
    @usableFromInline
    var other: (any Subscription)?
    @usableFromInline
    var latest: Other.Output?
    @usableFromInline
    var pendingDemand = Subscribers.Demand.none
    @usableFromInline
    var isTerminal = false

    @inlinable
    init(source: Upstream) { self.source = source }

    /// Takes everything the state holds, to let go of after unlocking.
    @inlinable
    mutating func releaseAll() -> Released {
      defer {
        source = nil
        upstream = nil
        other = nil
        latest = nil
      }
      return (source, upstream, other, latest)
    }

    /// The upstream publisher to subscribe to, the first time only.
    @inlinable
    mutating func startSource() -> Upstream? {
      guard !startedSource else { return nil }
      startedSource = true
      return source
    }
  }

  /// What the state held at the end.
  @usableFromInline
  typealias Released = (
    source: Upstream?, upstream: (any Subscription)?, other: (any Subscription)?,
    latest: Other.Output?
  )

  // Inlinable throughout, so that it is specialised for the caller's types.
  /// The shared state behind its lock.
  @usableFromInline
  let state: LockedBox<State>
  @usableFromInline
  let deliveryLock = RecursiveLock()
  /// Set after the other side's value or the end changes the state, cleared by the next
  /// value when it copies them: a value reads this flag instead of taking the state's lock.
  @usableFromInline
  let latestChanged = Atomic<Bool>(false)
  /// The latest value as deliveries see it (`nil` once the stream has ended, as the
  /// state's is); guarded by `deliveryLock`.
  @usableFromInline
  @exclusivity(unchecked)
  var deliveredLatest: Other.Output?
  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let resultSelector: (Upstream.Output, Other.Output) -> Downstream.Input

  @inlinable
  init(
    upstream: Upstream, downstream: Downstream,
    resultSelector: @escaping (Upstream.Output, Other.Output) -> Downstream.Input
  ) {
    state = LockedBox(State(source: upstream))
    self.downstream = downstream
    self.resultSelector = resultSelector
  }

  /// The subscriber attached to the other publisher.
  @inlinable
  var otherSide: OtherSide { OtherSide(parent: self) }

  @inlinable
  func receive(subscription: any Subscription) {
    let demand = state.withLock { state -> Subscribers.Demand? in
      guard state.upstream == nil, !state.isTerminal else { return nil }
      state.upstream = subscription
      return state.pendingDemand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let entered = deliveryLock.enter()
    defer { deliveryLock.exit(entered) }
    if latestChanged.load(ordering: .acquiring) { refreshLatest() }
    // Nothing to combine with (yet, or any more): the value is dropped, and its demand
    // asked again.
    guard let latest = deliveredLatest else { return .max(1) }
    return downstream.receive(resultSelector(input, latest))
  }

  /// Copies the latest value from the shared state (where the end clears it); call
  /// holding `deliveryLock`.
  @usableFromInline
  func refreshLatest() {
    // Cleared before the state is read: a change made meanwhile sets the flag again
    // after its write, so the next value copies it.
    latestChanged.store(false, ordering: .relaxed)
    deliveredLatest = state.withLock { $0.latest }
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    end(completion, cancelling: \.other)
  }

  @inlinable
  func otherSubscribed(_ subscription: any Subscription) {
    let accepted = state.withLock { state -> Bool in
      guard state.other == nil, !state.isTerminal else { return false }
      state.other = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.unlimited)
  }

  @inlinable
  func otherReceived(_ value: Other.Output) {
    let source = state.withLock { state -> Upstream? in
      guard !state.isTerminal else { return nil }
      state.latest = value
      return state.startSource()
    }
    latestChanged.store(true, ordering: .releasing)
    source?.subscribe(self)
  }

  @inlinable
  func otherCompleted(_ completion: Subscribers.Completion<Failure>) {
    guard case .failure = completion else {
      // The other side finishing keeps its latest value in use; if it sent none, the
      // upstream starts now, so that its finish still ends the stream.
      let source = state.withLock { $0.isTerminal ? nil : $0.startSource() }
      source?.subscribe(self)
      return
    }
    end(completion, cancelling: \.upstream)
  }

  /// Ends the stream once: cancels the side that did not end it and sends the completion.
  @inlinable
  func end(
    _ completion: Subscribers.Completion<Failure>,
    cancelling side: WritableKeyPath<State, (any Subscription)?>
  ) {
    let (ending, released) = state.withLock { state -> (Ending, Released?) in
      guard !state.isTerminal else { return (.alreadyEnded, nil) }
      state.isTerminal = true
      let toCancel = state[keyPath: side]
      return (.ends(cancelling: toCancel), state.releaseAll())
    }
    // Dropped after unlocking: the upstream publisher (a relay that finishes its
    // subscribers when it goes) and the latest value may run any code in their deinit.
    withExtendedLifetime(released) {}
    guard case .ends(let toCancel) = ending else { return }
    latestChanged.store(true, ordering: .releasing)
    toCancel?.cancel()
    deliveryLock.withLock {
      // A value that took the delivery lock first is delivered first; none after this.
      deliveredLatest = nil
      downstream.receive(completion: completion)
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing, as in CombineExt's demand buffer.
    guard demand > 0 else { return }
    let upstream = state.withLock { state -> (any Subscription)? in
      if state.upstream == nil { state.pendingDemand += demand }
      return state.upstream
    }
    upstream?.request(demand)
  }

  @inlinable
  func cancel() {
    let released = state.withLock { state -> Released in
      state.isTerminal = true
      return state.releaseAll()
    }
    latestChanged.store(true, ordering: .releasing)
    for subscription in [released.upstream, released.other] { subscription?.cancel() }
    // The upstream publisher and the latest value go after the cancels, unlocked.
    withExtendedLifetime(released) {}
  }

  @usableFromInline
  var description: String {
    "WithLatestFrom.Subscription<\(Downstream.Input.self), \(Failure.self)>"
  }

  /// What the other publisher is subscribed with.
  @usableFromInline
  struct OtherSide: Subscriber {
    @usableFromInline
    typealias Input = Other.Output
    @usableFromInline
    typealias Failure = Other.Failure
    @usableFromInline
    let parent: WithLatestFromSubscription
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: WithLatestFromSubscription) { self.parent = parent }

    @inlinable
    func receive(subscription: any Subscription) { parent.otherSubscribed(subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.otherReceived(input)
      return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { parent.otherCompleted(completion) }
  }
}
