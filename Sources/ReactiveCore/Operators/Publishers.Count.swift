extension Publisher {
  /// Publishes the number of elements received from the upstream publisher.
  ///
  ///     let cancellable = (1...4).publisher.count().sink { print($0) }
  ///     // Prints "4"
  ///
  /// - Returns: A publisher that consumes all elements until the upstream publisher
  ///   finishes, then emits a single value with the total number of elements received.
  public func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }
}

extension Publishers {
  /// A publisher that publishes the number of elements received from the upstream
  /// publisher.
  public struct Count<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Int
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher of the number of upstream elements.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber; the count waits for finish and demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Failure, S>(
            "Count", downstream: subscriber, initial: 0
          ) { count, _ in
            // `count` starts at 0 and is never cleared.
            count? += 1
            return .proceed
          })
    }
  }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}
