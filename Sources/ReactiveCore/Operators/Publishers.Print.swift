extension Publisher {
  /// Prints log messages for all publishing events.
  ///
  ///     let cancellable = [1].publisher.print("numbers").sink { _ in }
  ///     // Prints "numbers: receive subscription: ([1])", "numbers: request unlimited",
  ///     // "numbers: receive value: (1)", "numbers: receive finished"
  ///
  /// - Parameters:
  ///   - prefix: A string — which defaults to empty — with which to prefix all log
  ///     messages.
  ///   - stream: A stream for text output that receives messages, and which directs output
  ///     to the console by default.
  /// - Returns: A publisher that prints log messages for all publishing events.
  public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil)
    -> Publishers.Print<Self>
  {
    Publishers.Print(upstream: self, prefix: prefix, to: stream)
  }
}

extension Publishers {
  /// A publisher that prints log messages for all publishing events, optionally
  /// prefixed with a given string.
  public struct Print<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// A string with which to prefix all log messages.
    public let prefix: String
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// A stream for text output that receives messages.
    public let stream: (any TextOutputStream)?

    /// Creates a publisher that prints log messages for all publishing events.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - prefix: A string with which to prefix all log messages.
    ///   - stream: A stream for text output; standard output when `nil`.
    public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
      self.upstream = upstream
      self.prefix = prefix
      self.stream = stream
    }

    /// Demand as Combine's print spells it: `max: (5)` or `unlimited`.
    private static func describe(_ demand: Subscribers.Demand) -> String {
      demand.max.map { "max: (\($0))" } ?? "unlimited"
    }

    /// Attaches the subscriber through a tap that logs every event.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let log = PrintLog(prefix: prefix, stream: stream)
      let handlers = EventHandlers<Output, Failure>(
        subscription: { log.write("receive subscription: (\($0))") },
        output: { log.write("receive value: (\($0))") },
        completion: { completion in
          switch completion {
          case .finished: log.write("receive finished")
          case .failure(let error): log.write("receive error: (\(error))")
          }
        },
        cancel: { log.write("receive cancel") },
        request: { log.write("request \(Self.describe($0))") },
        demandReturned: { log.write("request \(Self.describe($0)) (synchronous)") })
      upstream.receive(
        subscriber: EventTap(
          name: "Print", downstream: subscriber, handlers: handlers, releasesHandlersAtEnd: false))
    }
  }
}

/// Where `print` writes: the given stream, or standard output.
///
/// Its state is the stream, which `write` mutates; the lock guards it.
private final class PrintLog: Guarded<(any TextOutputStream)?>, @unchecked Sendable {
  private let prefix: String

  init(prefix: String, stream: (any TextOutputStream)?) {
    self.prefix = prefix.isEmpty ? "" : prefix + ": "
    super.init(state: stream)
  }

  func write(_ message: String) {
    let line = prefix + message
    // The writes `Swift.print(_:to:)` makes, which Combine's print uses, so a stream sees
    // what it would from Combine: an empty separator, the text, then the line break.
    // (Calling `print(_:to:)` on the existential stream crashes this compiler.)
    let printed = withLock { stream -> Bool in
      guard stream != nil else { return false }
      for piece in ["", line, "\n"] { stream!.write(piece) }
      return true
    }
    if !printed { Swift.print(line) }
  }
}
