extension Publisher {
  /// Converts any failure from the upstream publisher into a new error.
  ///
  /// - Parameter transform: A closure that takes the upstream failure as a parameter and
  ///   returns a new error for the publisher to terminate with.
  /// - Returns: A publisher that replaces any upstream failure with a new error produced
  ///   by the `transform` closure.
  @inlinable
  public func mapError<E: Error>(_ transform: @escaping (Failure) -> E)
    -> Publishers.MapError<Self, E>
  {
    Publishers.MapError(upstream: self, transform)
  }
}

extension Publishers {
  /// A publisher that converts any failure from the upstream publisher into a new error.
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that converts the upstream failure into a new error.
    public let transform: (Upstream.Failure) -> Failure

    /// Creates a publisher that converts any failure from `upstream`.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Creates a publisher that converts any failure from `upstream`.
    @inlinable
    public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
      self.init(upstream: upstream, transform: map)
    }

    /// Attaches the subscriber through a forwarding subscriber that maps the failure.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let transform = transform
      upstream.receive(
        subscriber:
          ClosureForwarder<Output, Upstream.Failure, S>(
            "MapError", downstream: subscriber, onValue: { $1.receive($0) },
            onCompletion: { $1.receive(completion: $0.mapError(transform)) }))
    }
  }
}
