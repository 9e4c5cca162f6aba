import ReactiveCore

/// The subscription of `withLatestFrom`: downstream demand goes to the upstream; the other
/// publisher is asked for everything and only its latest value is kept.
///
/// - Note: Thread-safe. `lock` guards the state; `deliveryLock` keeps deliveries to the
///   subscriber from overlapping, since the other side may complete it from its own
///   thread.
final class WithLatestFromSubscription<
  Upstream: Publisher, Other: Publisher, Downstream: Subscriber
>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The state both sides share.
  private struct State {
    var upstream: (any Subscription)?
    var other: (any Subscription)?
    var latest: Other.Output?
    var pendingDemand = Subscribers.Demand.none
    var isTerminal = false
  }

  private let lock = Lock()
  private let deliveryLock = RecursiveLock()
  @exclusivity(unchecked)
  private var state = State()
  private let downstream: Downstream
  private let resultSelector: (Upstream.Output, Other.Output) -> Downstream.Input

  init(
    downstream: Downstream,
    resultSelector: @escaping (Upstream.Output, Other.Output) -> Downstream.Input
  ) {
    self.downstream = downstream
    self.resultSelector = resultSelector
  }

  /// The subscriber attached to the other publisher.
  var otherSide: OtherSide { OtherSide(parent: self) }

  func receive(subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard state.upstream == nil, !state.isTerminal else { return nil }
      state.upstream = subscription
      return state.pendingDemand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let latest = lock.withLock { state.isTerminal ? nil : state.latest }
    // Nothing to combine with yet: the value is dropped, and its demand asked again.
    guard let latest else { return .max(1) }
    let value = resultSelector(input, latest)
    return deliveryLock.withLock { downstream.receive(value) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    end(completion, cancelling: \.other)
  }

  fileprivate func otherSubscribed(_ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard state.other == nil, !state.isTerminal else { return false }
      state.other = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.unlimited)
  }

  fileprivate func otherReceived(_ value: Other.Output) {
    lock.withLock { state.latest = value }
  }

  fileprivate func otherCompleted(_ completion: Subscribers.Completion<Failure>) {
    // The other side finishing changes nothing: its latest value stays in use.
    guard case .failure = completion else { return }
    end(completion, cancelling: \.upstream)
  }

  /// Ends the stream once: cancels the side that did not end it and sends the completion.
  private func end(
    _ completion: Subscribers.Completion<Failure>,
    cancelling side: WritableKeyPath<State, (any Subscription)?>
  ) {
    let ending = lock.withLock { () -> Ending in
      guard !state.isTerminal else { return .alreadyEnded }
      state.isTerminal = true
      defer {
        state.upstream = nil
        state.other = nil
        state.latest = nil
      }
      return .ends(cancelling: state[keyPath: side])
    }
    guard case .ends(let toCancel) = ending else { return }
    toCancel?.cancel()
    deliveryLock.withLock { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let upstream = lock.withLock { () -> (any Subscription)? in
      if state.upstream == nil { state.pendingDemand += demand }
      return state.upstream
    }
    upstream?.request(demand)
  }

  func cancel() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      state.isTerminal = true
      defer {
        state.upstream = nil
        state.other = nil
        state.latest = nil
      }
      return [state.upstream, state.other].compactMap { $0 }
    }
    for subscription in subscriptions { subscription.cancel() }
  }

  var description: String { "WithLatestFrom" }

  /// What the other publisher is subscribed with.
  struct OtherSide: Subscriber {
    typealias Input = Other.Output
    typealias Failure = Other.Failure
    let parent: WithLatestFromSubscription
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { parent.otherSubscribed(subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.otherReceived(input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { parent.otherCompleted(completion) }
  }
}
