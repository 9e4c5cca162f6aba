/// The closures an ``EventTap`` runs; shared by `handleEvents` and `print`.
struct EventHandlers<Output, Failure: Error> {
  var subscription: ((any Subscription) -> Void)?
  var output: ((Output) -> Void)?
  var completion: ((Subscribers.Completion<Failure>) -> Void)?
  var cancel: (() -> Void)?
  var request: ((Subscribers.Demand) -> Void)?
  var demandReturned: ((Subscribers.Demand) -> Void)? = nil
}

/// Stands between upstream and downstream in both directions, running a closure for each
/// event before passing it on.
final class EventTap<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The lock that guards `status` and `downstream`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  private let handlers: EventHandlers<Input, Failure>
  let description: String

  init(name: String, downstream: Downstream, handlers: EventHandlers<Input, Failure>) {
    description = name
    self.downstream = downstream
    self.handlers = handlers
  }

  func receive(subscription: any Subscription) {
    handlers.subscription?(subscription)
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    target.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    handlers.output?(input)
    guard let target = lock.withLock({ status.subscription == nil ? nil : downstream }) else {
      return .none
    }
    let more = target.receive(input)
    handlers.demandReturned?(more)
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    handlers.completion?(completion)
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      status = .terminal
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    handlers.request?(demand)
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    handlers.cancel?()
    let taken = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        downstream = nil
      }
      return (status.subscription, downstream)
    }
    taken.0?.cancel()
  }

  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
