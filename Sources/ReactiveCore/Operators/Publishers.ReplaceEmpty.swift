extension Publisher {
  /// Replaces an empty stream with the provided element.
  ///
  ///     let cancellable = Empty<Int, Never>().replaceEmpty(with: 0).sink { print($0) }
  ///     // Prints "0"
  ///
  /// - Parameter output: An element to emit when the upstream publisher finishes without
  ///   emitting any elements.
  /// - Returns: A publisher that replaces an empty stream with the provided output element.
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces an empty stream with a provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The element to deliver when the upstream publisher finishes without delivering any
    /// elements.
    public let output: Upstream.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces an empty stream with `output`.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber; the replacement waits for downstream demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      var isEmpty = true
      let replacement = output
      upstream.receive(
        subscriber:
          StepOperator<Output, Failure, S>(
            "ReplaceEmpty", downstream: subscriber,
            step: { input in
              isEmpty = false
              return .emit(input)
            },
            conclude: { completion in
              if case .failure(let error) = completion { return (nil, .failure(error)) }
              return (isEmpty ? replacement : nil, .finished)
            }))
    }
  }
}
