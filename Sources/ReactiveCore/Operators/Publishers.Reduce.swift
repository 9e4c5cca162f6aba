extension Publisher {
  /// Applies a closure that collects each element of a stream and publishes a final
  /// result upon completion.
  ///
  ///     let cancellable = (1...4).publisher.reduce(0, +).sink { print($0) }
  ///     // Prints "10"
  ///
  /// - Parameters:
  ///   - initialResult: The value that the closure receives the first time it's called.
  ///   - nextPartialResult: A closure that produces a new value by taking the
  ///     previously-accumulated value and the next element it receives from the upstream
  ///     publisher.
  /// - Returns: A publisher that applies the closure to all received elements and
  ///   produces an accumulated value when the upstream publisher finishes.
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Reduce<Self, T> {
    Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Applies an error-throwing closure that collects each element of a stream and
  /// publishes a final result upon completion.
  ///
  /// - Parameters:
  ///   - initialResult: The value that the closure receives the first time it's called.
  ///   - nextPartialResult: An error-throwing closure that takes the accumulated value and
  ///     the next element.
  /// - Returns: A publisher of the accumulated value; it fails if the closure throws.
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryReduce<Self, T> {
    Publishers.TryReduce(
      upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that applies a closure to all received elements and produces an
  /// accumulated value when the upstream publisher finishes.
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The initial value provided on the first invocation of the closure.
    public let initial: Output
    /// A closure that takes the previously-accumulated value and the next element from
    /// the upstream publisher to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher of the accumulated value.
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber; the result waits for downstream demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Failure, S>.accumulating(
            "Reduce", downstream: subscriber, initial: initial, next: nextPartialResult))
    }
  }

  /// A publisher that applies an error-throwing closure to all received elements and
  /// produces an accumulated value when the upstream publisher finishes.
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The initial value provided on the first invocation of the closure.
    public let initial: Output
    /// An error-throwing closure that takes the previously-accumulated value and the next
    /// element from the upstream to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher of the accumulated value of a throwing closure.
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Upstream.Failure, S>.accumulating(
            "TryReduce", downstream: subscriber, initial: initial, next: nextPartialResult))
    }
  }
}
