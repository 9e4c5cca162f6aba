/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class constrained because a `Subscription` has identity, defined by
/// the moment a particular subscriber attached to a publisher. Cancelling a subscription
/// must be thread-safe, and you can only cancel a subscription once.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Tells a publisher that it may send more values to the subscriber.
  ///
  /// - Parameter demand: The number of additional values the subscriber wants.
  func request(_ demand: Subscribers.Demand)
}
