extension Publisher {
  /// Omits the specified number of elements before republishing subsequent elements.
  ///
  ///     let cancellable = (1...5).publisher.dropFirst(2).sink { print($0) }
  ///     // Prints "3", "4", "5"
  ///
  /// - Parameter count: The number of elements to omit. The default is `1`.
  /// - Returns: A publisher that doesn't republish the first `count` elements.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that omits a specified number of elements before republishing later
  /// elements.
  public struct Drop<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The number of elements to drop.
    public let count: Int

    /// Creates a publisher that drops the first `count` elements.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber; each dropped element is replaced by a request for one more.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      // Combine traps here, on subscription, not when the operator is made.
      precondition(count >= 0, "count must not be negative")
      var remaining = count
      upstream.receive(
        subscriber:
          Relay<Output, Failure, S>("Drop", downstream: subscriber) { input, downstream in
            guard remaining == 0 else {
              remaining -= 1
              return .max(1)
            }
            return downstream.receive(input)
          })
    }
  }
}
