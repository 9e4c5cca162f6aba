extension Publisher {
  /// Publishes the last element of a stream, after the stream finishes.
  ///
  ///     let cancellable = (1...3).publisher.last().sink { print($0) }
  ///     // Prints "3"
  ///
  /// - Returns: A publisher that only publishes the last element of a stream.
  public func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }

  /// Publishes the last element of a stream that satisfies a predicate closure, after
  /// upstream finishes.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns
  ///   a Boolean value that indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the last element satisfying the predicate.
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the last element of a stream that satisfies an error-throwing predicate
  /// closure, after the stream finishes.
  ///
  /// - Parameter predicate: A closure that returns whether to publish the element; it may
  ///   throw, which fails the publisher.
  /// - Returns: A publisher of the last element satisfying the predicate.
  public func tryLast(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryLastWhere<Self>
  {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that waits until after the stream finishes, and then publishes the last
  /// element of the stream.
  public struct Last<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher of the last upstream element.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber; the last element waits for finish and demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReducingSubscription<Output, Failure, S>.picking(
            "Last", downstream: subscriber, stopsAtMatch: false, where: { _ in true }))
    }
  }

  /// A publisher that waits until after the stream finishes and then publishes the last
  /// element of the stream that satisfies a predicate closure.
  public struct LastWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that determines whether to publish an element.
    public let predicate: (Output) -> Bool

    /// Creates a publisher of the last element satisfying `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; the last match waits for finish and demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReducingSubscription<Output, Failure, S>.picking(
            "LastWhere", downstream: subscriber, stopsAtMatch: false, where: predicate))
    }
  }

  /// A publisher that waits until after the stream finishes and then publishes the last
  /// element of the stream that satisfies an error-throwing predicate closure.
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Output) throws -> Bool

    /// Creates a publisher of the last element satisfying a throwing `predicate`.
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
            "TryLastWhere", downstream: subscriber, stopsAtMatch: false, where: predicate))
    }
  }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}
