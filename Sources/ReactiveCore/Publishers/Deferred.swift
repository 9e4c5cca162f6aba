/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// The closure runs once per subscription.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  /// The kind of values published by this publisher.
  public typealias Output = DeferredPublisher.Output
  /// The kind of errors this publisher might publish.
  public typealias Failure = DeferredPublisher.Failure

  /// The closure to execute when this deferred publisher receives a subscription.
  public let createPublisher: () -> DeferredPublisher

  /// Creates a deferred publisher.
  ///
  /// - Parameter createPublisher: The closure to execute when calling `subscribe(_:)`.
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  /// Creates the publisher and attaches the subscriber to it.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    createPublisher().receive(subscriber: subscriber)
  }
}
