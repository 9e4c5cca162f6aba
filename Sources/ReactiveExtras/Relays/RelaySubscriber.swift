import ReactiveCore

/// Attaches a relay's subscriber to the relay's subject through a subscription that takes a
/// request of `.none` as "nothing more for now", as CombineExt's relay subscriptions do,
/// where the subject's own subscription traps as Combine's does.
struct RelaySubscriber<Downstream: Subscriber>: Subscriber where Downstream.Failure == Never {
  typealias Input = Downstream.Input
  typealias Failure = Never

  let downstream: Downstream

  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: RelaySubscription(subscription))
  }

  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

  func receive(completion: Subscribers.Completion<Never>) {
    downstream.receive(completion: completion)
  }
}

/// The subject's subscription, less its trap on a request of `.none`.
///
/// - Note: Thread-safe: it holds only the subject's subscription, which is.
final class RelaySubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  private let subscription: any Subscription

  init(_ subscription: any Subscription) { self.subscription = subscription }

  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    subscription.request(demand)
  }

  func cancel() { subscription.cancel() }

  var description: String { String(describing: subscription) }
}
