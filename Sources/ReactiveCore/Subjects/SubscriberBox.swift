/// Holds a subscriber that is a struct, so that a conduit can take it out of its lock
/// with one retain.
@usableFromInline
final class SubscriberBox<Subscriber> {
  @usableFromInline
  let subscriber: Subscriber

  @inlinable
  init(_ subscriber: Subscriber) { self.subscriber = subscriber }
}

extension SubscriberBox where Subscriber: ReactiveCore.Subscriber {
  // Calls through methods of the box, so that the subscriber is borrowed in place:
  // reading it out of the box first copied it, a retain and release per closure it holds.

  /// Delivers a value to the boxed subscriber.
  @inlinable @inline(__always)
  func receive(_ value: Subscriber.Input) -> Subscribers.Demand { subscriber.receive(value) }

  /// Delivers a completion to the boxed subscriber.
  @inlinable @inline(__always)
  func receive(completion: Subscribers.Completion<Subscriber.Failure>) {
    subscriber.receive(completion: completion)
  }
}
