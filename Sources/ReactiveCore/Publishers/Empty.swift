/// A publisher that never publishes any values, and optionally finishes immediately.
///
///     let cancellable = Empty<Int, Never>().sink(
///         receiveCompletion: { print($0) }, receiveValue: { print($0) })
///     // Prints "finished"
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
  /// A Boolean value that indicates whether the publisher immediately sends a completion.
  public let completeImmediately: Bool

  /// Creates an empty publisher.
  ///
  /// - Parameter completeImmediately: A Boolean value that indicates whether the
  ///   publisher should immediately finish.
  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  /// Creates an empty publisher with the given completion behavior and output and
  /// failure types.
  ///
  /// - Parameters:
  ///   - completeImmediately: Whether the publisher should immediately finish.
  ///   - outputType: The output type exposed by this publisher.
  ///   - failureType: The failure type exposed by this publisher.
  public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type)
  {
    self.init(completeImmediately: completeImmediately)
  }

  /// Sends an empty subscription, then finishes if so configured.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    if completeImmediately { subscriber.receive(completion: .finished) }
  }
}

extension Empty: Sendable {}
