import ReactiveCore

extension Publisher {
  /// Mirrors whichever of this publisher and `other` sends an event first — a value or a
  /// completion — and cancels the other ("ambiguous": the race decides).
  ///
  ///     let fastest = primaryServer.amb(mirrorServer)
  ///
  /// Until one of them has sent something, both are asked for the subscriber's demand.
  ///
  /// - Parameter other: The publisher to race against.
  /// - Returns: A publisher of the winner's events.
  public func amb<Other: Publisher>(_ other: Other) -> Publishers.Amb<Self, Other>
  where Other.Output == Output, Other.Failure == Failure {
    Publishers.Amb(first: self, second: other)
  }

  /// Mirrors whichever of this publisher and `others` sends an event first.
  ///
  /// - Parameter others: The publishers to race against.
  /// - Returns: A publisher of the winner's events.
  public func amb<Others: Collection>(with others: Others) -> AnyPublisher<Output, Failure>
  where
    Others.Element: Publisher, Others.Element.Output == Output,
    Others.Element.Failure == Failure
  {
    others.reduce(eraseToAnyPublisher()) { $0.amb($1).eraseToAnyPublisher() }
  }
}

extension Publisher {
  /// Mirrors whichever of this publisher and `others` sends an event first: the variadic
  /// form of ``amb(with:)-(Others)``, as CombineExt spells it.
  ///
  ///     let fastest = primary.amb(with: mirrorA, mirrorB)
  ///
  /// - Parameter others: The publishers to race against.
  /// - Returns: A publisher of the winner's events.
  public func amb<Other: Publisher>(with others: Other...) -> AnyPublisher<Output, Failure>
  where Other.Output == Output, Other.Failure == Failure {
    amb(with: others)
  }
}

extension Collection where Element: Publisher {
  /// Mirrors whichever publisher in the collection sends an event first.
  ///
  /// - Returns: A publisher of the winner's events; an empty collection finishes at once.
  public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
    guard let first else { return Empty().eraseToAnyPublisher() }
    return first.amb(with: dropFirst())
  }
}

extension Publishers {
  /// A publisher that mirrors whichever of two publishers sends an event first.
  public struct Amb<First: Publisher, Second: Publisher>: Publisher
  where First.Output == Second.Output, First.Failure == Second.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = First.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = First.Failure
    /// One of the racing publishers.
    public let first: First
    /// The other racing publisher.
    public let second: Second

    /// Creates a race between two publishers.
    ///
    /// - Parameters:
    ///   - first: One of the racing publishers.
    ///   - second: The other racing publisher.
    public init(first: First, second: Second) {
      self.first = first
      self.second = second
    }

    /// Subscribes to both publishers, then hands the subscriber its subscription, as
    /// CombineExt does: events the publishers send from inside the subscriber's
    /// `receive(subscription:)` already race.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let race = AmbSubscription<S>(downstream: subscriber)
      first.subscribe(race.side(0))
      second.subscribe(race.side(1))
      subscriber.receive(subscription: race)
      race.attached()
    }
  }
}

/// The race of `amb`: both sides get the subscriber's demand until one sends an event;
/// that one wins, the other is cancelled and ignored.
///
/// - Note: Thread-safe. Its box's lock guards the state; after the decision only the winner's
///   events, which its publisher serialises, reach the subscriber.
private final class AmbSubscription<Downstream: Subscriber>: Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  /// Who has the race.
  private enum Race: Equatable {
    case open
    case won(by: Int)
    case over
  }

  /// Everything about the race that changes; guarded by its box's lock.
  private struct State {
    /// Who has the race.
    var race = Race.open
    /// Each side's subscription, once it arrives and while it may still win.
    var sides: [(any Subscription)?] = [nil, nil]
    /// All demand downstream asked for.
    var requested = Subscribers.Demand.none
    /// Whether the subscriber has been handed its subscription.
    var isAttached = false
    /// A completion that won the race before the subscriber had its subscription; it is
    /// sent once it has.
    var heldCompletion: Subscribers.Completion<Failure>?
    /// The subscriber, until the race ends (a completion delivered, or a cancel): let go
    /// of then, so that a subscriber holding its subscription forms no cycle.
    var downstream: Downstream?
  }

  /// The race's state behind its lock.
  private let state: LockedBox<State>

  init(downstream: Downstream) {
    var initial = State()
    initial.downstream = downstream
    state = LockedBox(initial)
  }

  func side(_ index: Int) -> Side { Side(parent: self, index: index) }

  fileprivate func subscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = state.withLock { state -> Subscribers.Demand? in
      guard state.sides[index] == nil, state.race == .open || state.race == .won(by: index)
      else { return nil }
      state.sides[index] = subscription
      return state.requested
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  /// What a side finds when it sends an event.
  private enum Claim {
    /// It has the race (the loser, if it has just been decided, is to be cancelled).
    case won(loser: (any Subscription)?)
    /// Another side has it, or the race is over.
    case lost
  }

  /// Whether side `index` may deliver: it wins an open race, or has won it. The loser is
  /// cancelled.
  fileprivate func claim(_ index: Int) -> Bool {
    let claim = state.withLock { state -> Claim in
      switch state.race {
      case .open:
        state.race = .won(by: index)
        defer { state.sides[1 - index] = nil }
        return .won(loser: state.sides[1 - index])
      case .won(let winner): return winner == index ? .won(loser: nil) : .lost
      case .over: return .lost
      }
    }
    guard case .won(let loser) = claim else { return false }
    loser?.cancel()
    return true
  }

  fileprivate func received(_ index: Int, _ value: Output) -> Subscribers.Demand {
    guard claim(index), let downstream = state.withLock({ $0.downstream }) else { return .none }
    return downstream.receive(value)
  }

  fileprivate func completed(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    guard claim(index) else { return }
    let downstream = state.withLock { state -> Downstream? in
      state.race = .over
      state.sides = [nil, nil]
      guard state.isAttached else {
        state.heldCompletion = completion
        return nil
      }
      return state.downstream.take()
    }
    downstream?.receive(completion: completion)
  }

  /// The subscriber has its subscription: a completion that came first goes out now.
  func attached() {
    let held = state.withLock { state -> (Downstream, Subscribers.Completion<Failure>)? in
      state.isAttached = true
      guard let held = state.heldCompletion.take(), let downstream = state.downstream.take()
      else { return nil }
      return (downstream, held)
    }
    if let (downstream, completion) = held { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing, as in CombineExt's demand buffer.
    guard demand > 0 else { return }
    let targets = state.withLock { state -> [any Subscription] in
      state.requested += demand
      return state.sides.compactMap { $0 }
    }
    for target in targets { target.request(demand) }
  }

  func cancel() {
    let (targets, released) = state.withLock { state -> ([any Subscription], Downstream?) in
      state.race = .over
      state.heldCompletion = nil
      defer { state.sides = [nil, nil] }
      return (state.sides.compactMap { $0 }, state.downstream.take())
    }
    for target in targets { target.cancel() }
    // Let go of the subscriber outside the lock: its deinit may call back.
    _ = released
  }

  var description: String { "Amb" }

  /// What each racing publisher is subscribed with.
  struct Side: Subscriber {
    typealias Input = Output
    let parent: AmbSubscription
    let index: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { parent.subscribed(index, subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { parent.received(index, input) }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.completed(index, completion)
    }
  }
}
