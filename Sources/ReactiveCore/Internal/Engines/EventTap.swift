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
/// - Note: Thread-safe. `lock` guards ``State``; no handler, upstream or downstream code
///   runs while it is held, and released handlers are dropped after unlocking (a closure's
///   captures may run any code when they go).
final class EventTap<Downstream: Subscriber>: Guarded<EventTapState<Downstream>>, Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

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
    self.releasesHandlersAtEnd = releasesHandlersAtEnd
    super.init(state: Lifecycle(handlers))
  }

  func receive(subscription: any Subscription) {
    withLock { $0.machine.subscription }?(subscription)
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    // Only the handlers a value needs leave the lock: copying all of them would retain
    // and release six closures per value.
    let handlers = withLock { ValueHandlers($0.machine) }
    handlers.output?(input)
    let more = downstream.receive(input)
    if more != .none {
      // `print` reports returned demand its own way; `handleEvents` as a request.
      if let demandReturned = handlers.demandReturned {
        demandReturned(more)
      } else {
        handlers.request?(more)
      }
    }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    withLock { $0.machine.completion }?(completion)
    let released = withLock { end(&$0) }
    withExtendedLifetime(released) {}
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { $0.machine.request }?(demand)
    currentUpstream()?.request(demand)
  }

  func cancel() {
    withLock { $0.machine.cancel }?()
    var released: EventHandlers<Input, Failure>?
    let subscription = withLock { state -> (any Subscription)? in
      guard let subscription = state.subscription else { return nil }
      released = end(&state)
      return subscription
    }
    withExtendedLifetime(released) {}
    subscription?.cancel()
  }

  /// Ends the tap and, unless it logs for life, takes its handlers out, for the caller to
  /// drop after unlocking. Call with the lock held.
  private func end(_ state: inout EventTapState<Downstream>) -> EventHandlers<Input, Failure>? {
    _ = state.end()
    guard releasesHandlersAtEnd else { return nil }
    defer { state.machine = EventHandlers() }
    return state.machine
  }

  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}

/// What an ``EventTap``'s lock guards: its lifecycle, whose machine is the closures it
/// runs (emptied when a `handleEvents` tap ends).
typealias EventTapState<Downstream: Subscriber> = Lifecycle<
  EventHandlers<Downstream.Input, Downstream.Failure>
>

extension EventTap {
  /// The handlers a value runs, taken out of the lock together.
  private struct ValueHandlers {
    let output: ((Input) -> Void)?
    let request: ((Subscribers.Demand) -> Void)?
    let demandReturned: ((Subscribers.Demand) -> Void)?

    init(_ handlers: EventHandlers<Input, Failure>) {
      output = handlers.output
      request = handlers.request
      demandReturned = handlers.demandReturned
    }
  }
}
