extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the
  /// number of times you specify.
  ///
  ///     let cancellable = flaky.retry(3).sink(receiveCompletion: { print($0) }) { print($0) }
  ///
  /// Outstanding demand carries over to each new subscription.
  ///
  /// - Parameter retries: The number of times to attempt to recreate the subscription.
  /// - Returns: A publisher that attempts to recreate its subscription to a failed
  ///   upstream publisher.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream
  /// publisher.
  public struct Retry<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of retry attempts to perform; `nil` retries without limit.
    public let retries: Int?

    /// Creates a publisher that attempts to recreate its subscription to a failed
    /// upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - retries: The maximum number of retry attempts to perform. If `nil`, this
    ///     publisher attempts to reconnect with the upstream publisher an unlimited number
    ///     of times.
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    /// Attaches the subscriber; a failure resubscribes while attempts remain.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let upstream = upstream
      var remaining = retries
      let inner = CatchSubscription<Upstream, Retry<Upstream>, S>(
        name: "Retry", downstream: subscriber
      ) {
        error in
        if let left = remaining {
          guard left > 0 else { return .failure(error) }
          remaining = left - 1
        }
        return .success(Retry(upstream: upstream, retries: remaining))
      }
      upstream.receive(subscriber: inner)
    }
  }
}
