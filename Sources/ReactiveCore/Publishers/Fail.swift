/// A publisher that immediately terminates with the specified error.
///
///     let cancellable = Fail<Int, MyError>(error: .broken).sink(
///         receiveCompletion: { print($0) }, receiveValue: { print($0) })
///     // Prints "failure(MyError.broken)"
public struct Fail<Output, Failure: Error>: Publisher {
  /// The failure to send when terminating the publisher.
  public let error: Failure

  /// Creates a publisher that immediately terminates with the specified failure.
  ///
  /// - Parameter error: The failure to send when terminating the publisher.
  public init(error: Failure) { self.error = error }

  /// Creates publisher with the given output type, that immediately terminates with the
  /// specified failure.
  ///
  /// - Parameters:
  ///   - outputType: The output type exposed by this publisher.
  ///   - failure: The failure to send when terminating the publisher.
  public init(outputType: Output.Type, failure: Failure) { error = failure }

  /// Sends an empty subscription, then the failure.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(error))
  }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}
