extension Publisher {
  /// Calls an error-throwing closure with each received element and publishes any
  /// returned optional that has a value.
  ///
  /// - Parameter transform: An error-throwing closure that receives a value and returns
  ///   an optional value.
  /// - Returns: A publisher of the non-`nil` results; it fails if the closure throws.
  public func tryCompactMap<T>(
    _ transform: @escaping (Output) throws -> T?
  ) -> Publishers.TryCompactMap<Self, T> {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling an error-throwing
  /// closure with each received element.
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// An error-throwing closure that receives values and returns optional values.
    public let transform: (Upstream.Output) throws -> Output?

    /// Creates a publisher of the non-`nil` results of a throwing closure.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let transform = transform
      upstream.receive(
        subscriber:
          FilteringSubscription<Upstream.Output, Upstream.Failure, S>.subscriber(
            "TryCompactMap", downstream: subscriber
          ) { input in .trying { try transform(input).map { .emit($0) } ?? .drop } })
    }
  }
}
