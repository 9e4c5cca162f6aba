import ReactiveCore

/// A publisher that keeps the subscriber attached to it, for reflecting on it.
final class CapturingPublisher<Failure: Error>: Publisher, @unchecked Sendable {
  typealias Output = Int
  var subscriber: Any?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
    self.subscriber = subscriber
    subscriber.receive(subscription: Subscriptions.empty)
  }

  /// The labels and descriptions of the kept subscriber's mirror children.
  var children: [String] {
    Mirror(reflecting: subscriber!).children.map { "\($0.label ?? "_")=\($0.value)" }
  }
}
