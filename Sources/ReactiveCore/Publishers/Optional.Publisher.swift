extension Optional {
  /// A publisher that publishes an optional value to each subscriber exactly once, if
  /// the optional has a value.
  ///
  ///     let cancellable = Optional(3).publisher.sink { print($0) }
  ///     // Prints "3"
  public var publisher: Publisher { Publisher(self) }

  /// A publisher that publishes an optional value to each subscriber exactly once, if
  /// the optional has a value; otherwise it only finishes.
  public struct Publisher: ReactiveCore.Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Wrapped
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    /// The output to deliver to each subscriber.
    public let output: Wrapped?

    /// Creates a publisher to emit the value of the optional, or to finish immediately if
    /// the optional doesn't have a value.
    ///
    /// - Parameter output: The result to deliver to each subscriber.
    public init(_ output: Output?) { self.output = output }

    /// Emits the value on the first demand and finishes, or just finishes.
    public func receive<S: Subscriber>(subscriber: S) where Wrapped == S.Input, S.Failure == Never {
      if let output {
        subscriber.receive(
          subscription: SingleValueSubscription(
            value: output, downstream: subscriber, name: "Optional"))
      } else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
      }
    }
  }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
