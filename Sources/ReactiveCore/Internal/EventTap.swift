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
/// event before passing it on. It follows Combine's `handleEvents` exactly, since code
/// ported from Combine can observe it:
/// - values and completions pass on whatever the state (also before the subscription);
/// - demand a value returns is reported to the request handler too;
/// - a cancel before the subscription runs its handler and does nothing else;
/// - `handleEvents` releases its handlers when it completes or is cancelled; `print` keeps
///   logging for its whole life, as Combine's does (events after a cancel are logged too);
///   the downstream is kept for its whole life.
///
/// - Note: Thread-safe. `lock` guards `status` and `handlers`; no handler, upstream or
///   downstream code runs while it is held.
final class EventTap<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The lock that guards `status` and `handlers`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var handlers: EventHandlers<Input, Failure>
  private let downstream: Downstream
  /// Whether the handlers go when the tap ends (`handleEvents`) or stay (`print`).
  private let releasesHandlersAtEnd: Bool
  let description: String

  init(
    name: String, downstream: Downstream, handlers: EventHandlers<Input, Failure>,
    releasesHandlersAtEnd: Bool = true
  ) {
    description = name
    self.downstream = downstream
    self.handlers = handlers
    self.releasesHandlersAtEnd = releasesHandlersAtEnd
  }

  func receive(subscription: any Subscription) {
    lock.withLock { handlers.subscription }?(subscription)
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = status else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    // Only the handlers a value needs leave the lock: copying all of them would retain
    // and release six closures per value.
    let (output, request, demandReturned) = lock.withLock {
      (handlers.output, handlers.request, handlers.demandReturned)
    }
    output?(input)
    let more = downstream.receive(input)
    if more != .none {
      // `print` reports returned demand its own way; `handleEvents` as a request.
      if let demandReturned {
        demandReturned(more)
      } else {
        request?(more)
      }
    }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock { handlers.completion }?(completion)
    lock.withLock { terminate() }
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { handlers.request }?(demand)
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    lock.withLock { handlers.cancel }?()
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard let subscription = status.subscription else { return nil }
      terminate()
      return subscription
    }
    subscription?.cancel()
  }

  /// Ends the tap and, unless it logs for life, lets go of its handlers. Call with the
  /// lock held.
  private func terminate() {
    status = .terminal
    if releasesHandlersAtEnd { handlers = EventHandlers() }
  }

  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
