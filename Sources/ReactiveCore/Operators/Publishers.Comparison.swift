extension Publisher where Output: Comparable {
  /// Publishes the minimum value received from the upstream publisher, after it finishes.
  ///
  ///     let cancellable = [3, 1, 2].publisher.min().sink { print($0) }
  ///     // Prints "1"
  ///
  /// - Returns: A publisher that publishes the minimum value received from the upstream
  ///   publisher, after the upstream publisher finishes.
  public func min() -> Publishers.Comparison<Self> { max(by: >) }

  /// Publishes the maximum value received from the upstream publisher, after it finishes.
  ///
  /// - Returns: A publisher that publishes the maximum value received from the upstream
  ///   publisher, after the upstream publisher finishes.
  public func max() -> Publishers.Comparison<Self> { max(by: <) }
}

extension Publisher {
  /// Publishes the minimum value received from the upstream publisher, using the
  /// provided ordering closure.
  ///
  /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns
  ///   true if they're in increasing order.
  /// - Returns: A publisher that publishes the minimum value, after upstream finishes.
  public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
    -> Publishers.Comparison<Self>
  {
    max { areInIncreasingOrder($1, $0) }
  }

  /// Publishes the maximum value received from the upstream publisher, using the
  /// provided ordering closure.
  ///
  /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns
  ///   true if they're in increasing order.
  /// - Returns: A publisher that publishes the maximum value, after upstream finishes.
  public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
    -> Publishers.Comparison<Self>
  {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }

  /// Publishes the minimum value received from the upstream publisher, using the
  /// provided error-throwing closure to order the items.
  ///
  /// - Parameter areInIncreasingOrder: A throwing closure that orders two elements.
  /// - Returns: A publisher of the minimum value; it fails if the closure throws.
  public func tryMin(
    by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryComparison<Self> {
    tryMax { try areInIncreasingOrder($1, $0) }
  }

  /// Publishes the maximum value received from the upstream publisher, using the
  /// provided error-throwing closure to order the items.
  ///
  /// - Parameter areInIncreasingOrder: A throwing closure that orders two elements.
  /// - Returns: A publisher of the maximum value; it fails if the closure throws.
  public func tryMax(
    by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryComparison<Self> {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

extension Publishers {
  /// A publisher that republishes items from another publisher only if each new item is
  /// in increasing order from the previously-published item.
  ///
  /// It publishes the greatest element by `areInIncreasingOrder` when upstream finishes.
  public struct Comparison<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A closure that receives two elements and returns true if they're in increasing
    /// order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    /// Creates a publisher of the greatest element by `areInIncreasingOrder`.
    public init(
      upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Attaches the subscriber; the result waits for finish and demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReducingSubscription<Output, Failure, S>.keepingBest(
            "Comparison", downstream: subscriber, ordered: areInIncreasingOrder))
    }
  }

  /// A publisher that republishes items from another publisher only if each new item is
  /// in increasing order from the previously-published item, and fails if the ordering
  /// logic throws an error.
  public struct TryComparison<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A closure that receives two elements and returns true if they're in increasing
    /// order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

    /// Creates a publisher of the greatest element by a throwing ordering.
    public init(
      upstream: Upstream,
      areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == any Error {
      upstream.receive(
        subscriber:
          ReducingSubscription<Output, Upstream.Failure, S>.keepingBest(
            "TryComparison", downstream: subscriber, ordered: areInIncreasingOrder))
    }
  }
}
