extension Publisher {
  /// Republishes all elements that match a provided error-throwing closure.
  ///
  /// - Parameter isIncluded: A closure that returns whether to republish the element; it
  ///   may throw, which fails the publisher.
  /// - Returns: A publisher that republishes all elements that satisfy the closure.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<Self>
  {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers {
  /// A publisher that republishes all elements that match a provided error-throwing
  /// closure.
  public struct TryFilter<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// An error-throwing closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes elements matching a throwing predicate.
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let isIncluded = isIncluded
      upstream.receive(
        subscriber:
          FilteringSubscription<Output, Upstream.Failure, S>.subscriber(
            "TryFilter", downstream: subscriber
          ) { input in .trying { try isIncluded(input) ? .emit(input) : .drop } })
    }
  }
}
