/// The subscriber that `subscribe(_:)` attaches: it forwards
/// everything to a subject and cancels its upstream when cancelled.
///
/// It holds the subject weakly, as Combine's does: the subject keeps its upstream
/// subscriptions (this object), so a strong reference back would be a cycle that keeps a
/// dropped subject alive as long as its upstream runs.
final class SubjectSubscriber<Downstream: Subject>: Guarded<SubjectSubscriber<Downstream>.State>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure

  /// Everything about the subscriber that changes; guarded by the lock.
  struct State: SubscribedState {
    /// The subject, held weakly (as Combine does), until the stream ends.
    weak var subject: Downstream?
    /// Where this stands with its upstream subscription.
    var status = SubscriptionStatus.awaitingSubscription
  }

  init(_ subject: Downstream) { super.init(state: State(subject: subject)) }

  func receive(subscription: any Subscription) {
    let target = withLock { state -> Downstream? in
      guard case .awaitingSubscription = state.status, let subject = state.subject else {
        return nil
      }
      state.status = .subscribed(subscription)
      return subject
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.send(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let target = withLock { state -> Downstream? in
      guard case .subscribed = state.status else { return nil }
      return state.subject
    }
    target?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let target = withLock { state -> Downstream? in
      guard case .subscribed = state.status else { return nil }
      state.status = .terminal
      defer { state.subject = nil }
      return state.subject
    }
    target?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { $0.status.subscription }?.request(demand)
  }

  func cancel() {
    let ended = withLock { state -> State in
      defer {
        state.status = .terminal
        state.subject = nil
      }
      return state
    }
    ended.status.subscription?.cancel()
  }

  var description: String { "Subject" }

  /// Combine's children: the subject (twice, under both its names) and the upstream.
  var customMirror: Mirror {
    let current = withLock { $0 }
    let subject = current.subject
    let upstream = current.status.subscription
    return Mirror(
      self,
      children: [
        ("downstreamSubject", subject as Any), ("upstreamSubscription", upstream as Any),
        ("subject", subject as Any),
      ], ancestorRepresentation: .suppressed)
  }

  var playgroundDescription: Any { description }
}
