import ReactiveCore

/// Feeds a relay's subject from a publisher the way a subject is fed by
/// `publisher.subscribe(subject)`: the subject asks the publisher for values only as its
/// own subscribers ask (so a value is not lost before anyone listens), and the publisher's
/// completion is dropped, since a relay ends only when it is deallocated.
///
/// - Note: Thread-safe: the upstream subscription is guarded by a lock.
final class RelayFeed<Input, Target: Subject>: Subscriber, Cancellable, @unchecked Sendable
where Target.Output == Input, Target.Failure == Never {
  typealias Failure = Never

  private let target: Target
  /// The publisher's subscription, until cancelled; `cancelled` turns true once.
  private let upstream = LockedBox<(subscription: (any Subscription)?, cancelled: Bool)>(
    (nil, false))

  init(into target: Target) { self.target = target }

  func receive(subscription: any Subscription) {
    let accepted = upstream.withLock { state -> Bool in
      guard !state.cancelled, state.subscription == nil else { return false }
      state.subscription = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    target.send(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    target.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    upstream.withLock { $0.subscription = nil }
  }

  func cancel() {
    let subscription = upstream.withLock { state -> (any Subscription)? in
      state.cancelled = true
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
  }
}
