extension Publisher {
  /// Raises a fatal error when its upstream publisher fails, and otherwise republishes
  /// all received input.
  ///
  /// - Parameters:
  ///   - prefix: A string used at the beginning of the fatal error message.
  ///   - file: A filename used in the error message.
  ///   - line: A line number used in the error message.
  /// - Returns: A publisher that raises a fatal error when its upstream publisher fails.
  @inlinable
  public func assertNoFailure(
    _ prefix: String = "", file: StaticString = #file, line: UInt = #line
  ) -> Publishers.AssertNoFailure<Self> {
    Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
  }
}

extension Publishers {
  /// A publisher that raises a fatal error upon receiving any failure, and otherwise
  /// republishes all received input.
  public struct AssertNoFailure<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The string used at the beginning of the fatal error message.
    public let prefix: String
    /// The filename used in the error message.
    public let file: StaticString
    /// The line number used in the error message.
    public let line: UInt

    /// Creates a publisher that traps on any failure from `upstream`.
    @inlinable
    public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
      self.upstream = upstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    /// Attaches the subscriber through a forwarding subscriber that traps on failure.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
      let (prefix, file, line) = (prefix, file, line)
      upstream.receive(
        subscriber:
          ClosureForwarder<Output, Upstream.Failure, S>(
            "AssertNoFailure", downstream: subscriber,
            reflectedChildren: { [("file", file), ("line", line), ("prefix", prefix)] },
            onValue: { $1.receive($0) },
            onCompletion: { completion, downstream in
              switch completion {
              case .finished: downstream.receive(completion: .finished)
              case .failure(let error):
                let message = prefix.isEmpty ? "" : prefix + ": "
                fatalError("\(message)\(error)", file: file, line: line)
              }
            }))
    }
  }
}
