/// The subscriber that `subscribe(_:)` attaches: it forwards
/// everything to a subject and cancels its upstream when cancelled.
///
/// It holds the subject weakly, as Combine's does: the subject keeps its upstream
/// subscriptions (this object), so a strong reference back would be a cycle that keeps a
/// dropped subject alive as long as its upstream runs.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure

  /// The lock that guards `subject` and `status`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private weak var subject: Downstream?
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription

  init(_ subject: Downstream) { self.subject = subject }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let subject else { return nil }
      status = .subscribed(subscription)
      return subject
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.send(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      return subject
    }
    target?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      status = .terminal
      defer { subject = nil }
      return subject
    }
    target?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        subject = nil
      }
      return (status.subscription, subject)
    }
    taken.0?.cancel()
  }

  var description: String { "Subject" }

  /// Combine's children: the subject (twice, under both its names) and the upstream.
  var customMirror: Mirror {
    let (subject, upstream) = lock.withLock { (self.subject, status.subscription) }
    return Mirror(
      self,
      children: [
        ("downstreamSubject", subject as Any), ("upstreamSubscription", upstream as Any),
        ("subject", subject as Any),
      ])
  }

  var playgroundDescription: Any { description }
}
