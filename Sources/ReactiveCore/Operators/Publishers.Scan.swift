extension Publisher {
  /// Transforms elements from the upstream publisher by providing the current element to
  /// a closure along with the last value returned by the closure.
  ///
  ///     let cancellable = (1...4).publisher.scan(0, +).sink { print($0) }
  ///     // Prints "1", "3", "6", "10"
  ///
  /// - Parameters:
  ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
  ///   - nextPartialResult: A closure that takes as its arguments the previous value
  ///     returned by the closure and the next element emitted from the upstream publisher.
  /// - Returns: A publisher that transforms elements by applying a closure that receives
  ///   its previous return value and the next element from the upstream publisher.
  @inlinable
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Scan<Self, T> {
    Publishers.Scan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Transforms elements from the upstream publisher by providing the current element to
  /// an error-throwing closure along with the last value returned by the closure.
  ///
  /// - Parameters:
  ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
  ///   - nextPartialResult: An error-throwing closure that takes the previous result and
  ///     the next upstream element.
  /// - Returns: A publisher of the running results; it fails if the closure throws.
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryScan<Self, T> {
    Publishers.TryScan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that transforms elements by applying a closure that receives its previous
  /// return value and the next element from the upstream publisher.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The previous result returned by the `nextPartialResult` closure.
    public let initialResult: Output
    /// An error-throwing closure that takes as its arguments the previous value returned
    /// by the closure and the next element emitted from the upstream publisher.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher of running results.
    @inlinable
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber; each subscription keeps its own running result.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      // In a cell, not a captured `var`, so that a value pays no run-time exclusivity check.
      let accumulator = SerialCell(initialResult)
      let next = nextPartialResult
      upstream.receive(
        subscriber:
          ClosureForwarder<Upstream.Output, Failure, S>(
            "Scan", downstream: subscriber,
            reflectedChildren: { [("downstream", subscriber), ("result", accumulator.value)] }
          ) { input, downstream in
            let result = next(accumulator.value, input)
            accumulator.value = result
            return downstream.receive(result)
          })
    }
  }

  /// A publisher that transforms elements by applying an error-throwing closure that
  /// receives its previous return value and the next element from the upstream publisher.
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The previous result returned by the `nextPartialResult` closure.
    public let initialResult: Output
    /// An error-throwing closure that takes the previous result and the next element.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher of running results of a throwing closure.
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      upstream.receive(
        subscriber: TryScanSubscription<Upstream.Output, Upstream.Failure, S>.subscriber(
          for: subscriber, initialResult: initialResult,
          nextPartialResult: nextPartialResult))
    }
  }
}
