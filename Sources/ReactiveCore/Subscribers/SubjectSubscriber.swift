/// The subscriber that `subscribe(_:)` attaches: it forwards
/// everything to a subject and cancels its upstream when cancelled.
///
/// It holds the subject weakly, as Combine's does: the subject keeps its upstream
/// subscriptions (this object), so a strong reference back would be a cycle that keeps a
/// dropped subject alive as long as its upstream runs.
final class SubjectSubscriber<Downstream: Subject>: Guarded<
  Lifecycle<SubjectSubscriber<Downstream>.Target>
>,
Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure

  /// The machine of this subscriber's ``Lifecycle``: where it sends.
  struct Target {
    /// The subject, held weakly (as Combine does), until the stream ends.
    weak var subject: Downstream?
  }

  init(_ subject: Downstream) { super.init(state: Lifecycle(Target(subject: subject))) }

  func receive(subscription: any Subscription) {
    let target = withLock { state -> Downstream? in
      guard let subject = state.machine.subject, state.adopt(subscription) else { return nil }
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
      guard state.isSubscribed else { return nil }
      return state.machine.subject
    }
    target?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let target = withLock { state -> Downstream? in
      guard state.terminate() != nil else { return nil }
      defer { state.machine.subject = nil }
      return state.machine.subject
    }
    target?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    currentUpstream()?.request(demand)
  }

  func cancel() {
    let upstream = withLock { state in
      defer { state.machine.subject = nil }
      return state.end()
    }
    upstream?.cancel()
  }

  var description: String { "Subject" }

  /// Combine's children: the subject (twice, under both its names) and the upstream.
  var customMirror: Mirror {
    let current = withLock { $0 }
    let subject = current.machine.subject
    let upstream = current.subscription
    return Mirror(
      self,
      children: [
        ("downstreamSubject", subject as Any), ("upstreamSubscription", upstream as Any),
        ("subject", subject as Any),
      ], ancestorRepresentation: .suppressed)
  }

  var playgroundDescription: Any { description }
}
