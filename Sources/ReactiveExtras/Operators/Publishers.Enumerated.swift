import ReactiveCore

extension Publisher {
  /// Pairs each value with its index, as CombineExt's `enumerated(initial:)` does.
  ///
  ///     ["a", "b"].publisher.enumerated()  // (0, "a"), (1, "b")
  ///
  /// - Parameter initial: The index of the first value; 0 by default.
  /// - Returns: A publisher of `(index, element)` pairs.
  public func enumerated(initial: Int = 0) -> Publishers.Enumerated<Self> {
    Publishers.Enumerated(upstream: self, initial: initial)
  }
}

extension Publishers {
  /// A publisher that pairs each of its upstream's values with its index; each subscription
  /// counts from `initial`.
  public struct Enumerated<Upstream: Publisher>: Publisher {
    /// An index and the value at it.
    public typealias Output = (index: Int, element: Upstream.Output)
    /// The upstream's failure.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are counted.
    public let upstream: Upstream
    /// The index of the first value.
    public let initial: Int

    /// Creates the publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher whose values are counted.
    ///   - initial: The index of the first value.
    public init(upstream: Upstream, initial: Int = 0) {
      self.upstream = upstream
      self.initial = initial
    }

    /// Attaches the subscriber; its subscription counts from ``initial``.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      // Values reach one subscription one at a time, so its counter needs no lock.
      var next = initial
      upstream.map { element -> Output in
        defer { next += 1 }
        return (index: next, element: element)
      }
      .receive(subscriber: subscriber)
    }
  }
}
