extension Result {
  /// A publisher that publishes this result's value once and finishes, or fails.
  ///
  ///     let cancellable = Result<Int, Never>.success(1).publisher.sink { print($0) }
  ///     // Prints "1"
  public var publisher: Publisher { Publisher(self) }

  /// A publisher that publishes an output to each subscriber exactly once then finishes,
  /// or fails immediately without producing any elements.
  public struct Publisher: ReactiveCore.Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Success

    /// The result to deliver to each subscriber.
    public let result: Result<Output, Failure>

    /// Creates a publisher that delivers the specified result.
    ///
    /// - Parameter result: The result to deliver to each subscriber.
    public init(_ result: Result<Output, Failure>) { self.result = result }

    /// Creates a publisher that sends the specified output to all subscribers and
    /// finishes normally.
    ///
    /// - Parameter output: The output to deliver to each subscriber.
    public init(_ output: Output) { result = .success(output) }

    /// Creates a publisher that immediately terminates upon subscription with the given
    /// failure.
    ///
    /// - Parameter failure: The failure to send when terminating.
    public init(_ failure: Failure) { result = .failure(failure) }

    /// Emits the value on the first demand and finishes, or fails at once.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      switch result {
      case .success(let output):
        subscriber.receive(
          subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Once")
        )
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }
  }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
