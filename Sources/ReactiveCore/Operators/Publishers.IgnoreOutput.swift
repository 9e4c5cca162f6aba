extension Publisher {
  /// Ignores all upstream elements, but passes along the upstream publisher's completion
  /// state (finished or failed).
  ///
  /// - Returns: A publisher that ignores all upstream elements.
  @inlinable
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}

extension Publishers {
  /// A publisher that ignores all upstream elements, but passes along the upstream
  /// publisher's completion state.
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Never
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that ignores every element of `upstream`.
    @inlinable
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber and requests every upstream value, to reach completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ClosureForwarder<Upstream.Output, Failure, S>(
            "IgnoreOutput", downstream: subscriber, onSubscription: { $0.request(.unlimited) },
            onValue: { _, _ in .none }))
    }
  }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
