extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided error-throwing
  /// closure.
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the error.
  ///
  /// - Parameter transform: A closure that takes one element and returns a new element;
  ///   it may throw.
  /// - Returns: A publisher that uses the closure to map elements from upstream.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided
  /// error-throwing closure.
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) throws -> Output

    /// Creates a publisher that transforms elements with a throwing closure.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      upstream.receive(
        subscriber: TryMapSubscription<Upstream.Output, Upstream.Failure, S>.subscriber(
          for: subscriber, map: transform))
    }

    /// Composes a further transform into this one.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
      let first = self.transform
      return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Composes a further throwing transform into this one.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
      -> Publishers.TryMap<Upstream, T>
    {
      let first = self.transform
      return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
  }
}
