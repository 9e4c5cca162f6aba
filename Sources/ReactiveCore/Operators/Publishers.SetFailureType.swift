extension Publisher where Failure == Never {
  /// Changes the failure type declared by the upstream publisher.
  ///
  ///     let publisher: AnyPublisher<Int, MyError> = Just(1)
  ///         .setFailureType(to: MyError.self).eraseToAnyPublisher()
  ///
  /// - Parameter failureType: The `Failure` type presented by this publisher.
  /// - Returns: A publisher that appears to send the specified failure type.
  @inlinable
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E>
  {
    Publishers.SetFailureType(upstream: self)
  }
}

extension Publishers {
  /// A publisher that appears to send a specified failure type.
  ///
  /// The publisher can't actually fail with the specified type and finishes normally.
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
  where Upstream.Failure == Never {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that appears to send a specified failure type.
    @inlinable
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber through a forwarding subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ClosureForwarder<Output, Never, S>(
            "SetFailureType", downstream: subscriber, onValue: { $1.receive($0) },
            onCompletion: { _, downstream in downstream.receive(completion: .finished) }))
    }

    /// Changes the failure type again, keeping one operator.
    @inlinable
    public func setFailureType<E: Error>(to failure: E.Type)
      -> Publishers.SetFailureType<Upstream, E>
    {
      Publishers.SetFailureType<Upstream, E>(upstream: upstream)
    }
  }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}
