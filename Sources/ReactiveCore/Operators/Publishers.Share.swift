extension Publisher {
  /// Shares the output of an upstream publisher with multiple subscribers.
  ///
  /// The upstream is subscribed when the first subscriber attaches and cancelled when
  /// the last one leaves; every subscriber gets the values sent while it is attached.
  ///
  ///     let shared = (1...3).publisher.delay(...).share()
  ///
  /// - Returns: A class instance that shares elements received from its upstream to
  ///   multiple subscribers.
  public func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }
}

extension Publishers {
  /// A publisher that shares the output of an upstream publisher with multiple
  /// subscribers.
  ///
  /// This publisher type supports multiple subscribers, all of whom receive unchanged
  /// elements and completion states from the upstream publisher.
  public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

    /// Creates a publisher that shares the output of an upstream publisher with multiple
    /// subscribers.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    public init(upstream: Upstream) {
      self.upstream = upstream
      inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
    }

    /// Attaches the subscriber to the shared stream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      inner.receive(subscriber: subscriber)
    }

    /// Share publishers are equal when they are the same instance.
    public static func == (lhs: Share<Upstream>, rhs: Share<Upstream>) -> Bool { lhs === rhs }
  }
}
