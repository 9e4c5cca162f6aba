extension Publisher {
  /// Calls a closure with each received element and publishes any returned
  /// optional that has a value.
  ///
  ///     let cancellable = ["1", "x", "3"].publisher.compactMap { Int($0) }.sink { print($0) }
  ///     // Prints "1", "3"
  ///
  /// - Parameter transform: A closure that receives a value and returns an optional value.
  /// - Returns: Any non-`nil` optional results of the calling the supplied closure.
  @inlinable
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T>
  {
    Publishers.CompactMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling a closure with each
  /// received element.
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives values from the upstream publisher and returns optional
    /// values.
    public let transform: (Upstream.Output) -> Output?

    /// Creates a publisher that republishes all non-`nil` results of `transform`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - transform: A closure that returns optional values.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber through a forwarding subscriber that drops `nil` results.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let transform = transform
      upstream.receive(
        subscriber:
          ClosureForwarder<Upstream.Output, Failure, S>("CompactMap", downstream: subscriber) {
            input, downstream in
            transform(input).map(downstream.receive) ?? .max(1)
          })
    }
  }
}
