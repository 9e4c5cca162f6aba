extension Publisher {
  /// Replaces any errors in the stream with the provided element.
  ///
  ///     let cancellable = Fail<Int, MyError>(error: .broken)
  ///         .replaceError(with: 0).sink { print($0) }
  ///     // Prints "0"
  ///
  /// - Parameter output: An element to emit when the upstream publisher fails.
  /// - Returns: A publisher that replaces an error from the upstream publisher with the
  ///   provided output element.
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces any errors in the stream with a provided element.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never
    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces a failure with `output` and finishes.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber; the replacement waits for downstream demand.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
      let replacement = output
      upstream.receive(
        subscriber:
          StepOperator<Output, Upstream.Failure, S>(
            "ReplaceError", downstream: subscriber, step: { .emit($0) },
            conclude: { completion in
              if case .failure = completion { return (replacement, .finished) }
              return (nil, .finished)
            }))
    }
  }
}
