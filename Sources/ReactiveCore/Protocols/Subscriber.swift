/// A protocol that declares a type that can receive input from a publisher.
///
/// A subscriber receives exactly one subscription, then any number of values (never more
/// than it demanded), then at most one completion.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  /// The kind of values this subscriber receives.
  associatedtype Input
  /// The kind of errors this subscriber might receive.
  associatedtype Failure: Error

  /// Tells the subscriber that it has successfully subscribed to the publisher and may
  /// request items.
  ///
  /// - Parameter subscription: A subscription that represents the connection between
  ///   publisher and subscriber.
  func receive(subscription: any Subscription)

  /// Tells the subscriber that the publisher has produced an element.
  ///
  /// - Parameter input: The published element.
  /// - Returns: A demand that adds to the subscriber's outstanding demand.
  func receive(_ input: Input) -> Subscribers.Demand

  /// Tells the subscriber that the publisher has completed publishing, either normally or
  /// with an error.
  ///
  /// - Parameter completion: A completion that indicates whether publishing completed
  ///   normally or with an error.
  func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
  /// Tells the subscriber that a publisher of void elements is ready to receive further
  /// requests.
  public func receive() -> Subscribers.Demand { receive(()) }
}
