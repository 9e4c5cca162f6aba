extension Publisher {
  /// Publishes the first element of a stream, then finishes.
  ///
  ///     let cancellable = (1...3).publisher.first().sink { print($0) }
  ///     // Prints "1"
  ///
  /// - Returns: A publisher that only publishes the first element of a stream.
  public func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
  }

  /// Publishes the first element of a stream to satisfy a predicate closure, then
  /// finishes normally.
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value that indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the first element of a stream that
  ///   satisfies the predicate.
  public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the first element of a stream to satisfy a throwing predicate closure,
  /// then finishes normally.
  ///
  /// - Parameter predicate: A closure that returns whether to publish the element; it may
  ///   throw, which fails the publisher.
  /// - Returns: A publisher that only publishes the first element satisfying the predicate.
  public func tryFirst(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryFirstWhere<Self>
  {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes the first element of a stream, then finishes.
  public struct First<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher of the first upstream element.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber; the first element cancels upstream and finishes.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReducingSubscription<Output, Failure, S>.picking(
            "First", downstream: subscriber, stopsAtMatch: true, where: { _ in true }))
    }
  }

  /// A publisher that only publishes the first element of a stream to satisfy a
  /// predicate closure.
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that determines whether to publish an element.
    public let predicate: (Output) -> Bool

    /// Creates a publisher of the first element satisfying `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; the first match cancels upstream and finishes.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          // Combine names the subscription of the non-throwing `first(where:)` "TryFirst".
          ReducingSubscription<Output, Failure, S>.picking(
            "TryFirst", downstream: subscriber, stopsAtMatch: true, where: predicate))
    }
  }

  /// A publisher that only publishes the first element of a stream to satisfy a
  /// throwing predicate closure.
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Output) throws -> Bool

    /// Creates a publisher of the first element satisfying a throwing `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      upstream.receive(
        subscriber:
          ReducingSubscription<Output, Upstream.Failure, S>.picking(
            "TryFirstWhere", downstream: subscriber, stopsAtMatch: true, where: predicate))
    }
  }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
