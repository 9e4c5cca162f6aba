import ReactiveCore

/// What a ``RecordingSubscription`` was asked.
enum SubscriptionCall: Equatable {
  case requested(Subscribers.Demand)
  case cancelled
}

/// A subscription that records every request and cancel, and does nothing else.
final class RecordingSubscription: Subscription, @unchecked Sendable {
  private let calls = LockedBox<[SubscriptionCall]>([])

  /// Every request and cancel, in order.
  var history: [SubscriptionCall] { calls.withLock { $0 } }

  /// Run after recording a cancel, for tests of what a cancel may set off.
  private let onCancel: (@Sendable () -> Void)?

  init(onCancel: (@Sendable () -> Void)? = nil) { self.onCancel = onCancel }

  func request(_ demand: Subscribers.Demand) { calls.withLock { $0.append(.requested(demand)) } }
  func cancel() {
    calls.withLock { $0.append(.cancelled) }
    onCancel?()
  }
}

/// A publisher driven by hand: it keeps the last subscriber and, if given one, hands it a
/// subscription at once; the test then sends subscriptions, values and completions itself.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  private let subscription: RecordingSubscription?
  private let subscriber = LockedBox<AnySubscriber<Output, Failure>?>(nil)
  private let raw = LockedBox<Any?>(nil)

  /// The last subscriber as it was attached, not erased (an operator's own subscriber).
  var rawSubscriber: Any? { raw.withLock { $0 } }

  init(subscription: RecordingSubscription?) {
    self.subscription = subscription
    OpenSubscriptions.register(self)
  }

  /// Lets go of the subscriber, as a real publisher does once its subscription is
  /// cancelled; ``OpenSubscriptions`` calls it for every publisher still alive when the
  /// test process exits.
  func releaseSubscriber() {
    let released = (subscriber.withLock { $0.take() }, raw.withLock { $0.take() })
    _ = released
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    self.subscriber.withLock { $0 = AnySubscriber(subscriber) }
    raw.withLock { $0 = subscriber }
    if let subscription { subscriber.receive(subscription: subscription) }
  }

  /// Whether a subscriber is attached.
  var hasSubscriber: Bool { subscriber.withLock { $0 != nil } }

  func send(subscription: any Subscription) {
    subscriber.withLock { $0 }?.receive(subscription: subscription)
  }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscriber.withLock { $0 }?.receive(value) ?? .none
  }

  func send(completion: Subscribers.Completion<Failure>) {
    subscriber.withLock { $0 }?.receive(completion: completion)
  }
}

extension ManualPublisher: ReleasesAtExit {
  func releaseAtExit() { releaseSubscriber() }
}
