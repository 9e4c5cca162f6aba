extension Publisher {
  /// Buffers elements received from an upstream publisher.
  ///
  ///     let buffered = subject.buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
  ///
  /// - Parameters:
  ///   - size: The maximum number of elements to store.
  ///   - prefetch: The strategy to initially populate the buffer.
  ///   - whenFull: The action to take when the buffer becomes full.
  /// - Returns: A publisher that buffers elements received from an upstream publisher.
  public func buffer(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Publishers.Buffer<Self> {
    Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
  }
}

extension Publishers {
  /// A strategy for filling a buffer.
  public enum PrefetchStrategy: Equatable, Hashable, Sendable {
    /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
    case keepFull
    /// A strategy that avoids prefetching and instead performs requests on demand: the
    /// upstream is asked for everything, and the buffer absorbs what downstream has not
    /// yet requested.
    case byRequest
  }

  /// A strategy that handles exhaustion of a buffer's capacity.
  public enum BufferingStrategy<Failure: Error> {
    /// When the buffer is full, discard the newly received element.
    case dropNewest
    /// When the buffer is full, discard the oldest element in the buffer.
    case dropOldest
    /// When the buffer is full, execute the closure to provide a custom error.
    case customError(() -> Failure)
  }

  /// A publisher that buffers elements from an upstream publisher.
  public struct Buffer<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of elements to store.
    public let size: Int
    /// The strategy for initially populating the buffer.
    public let prefetch: PrefetchStrategy
    /// The action to take when the buffer becomes full.
    public let whenFull: BufferingStrategy<Upstream.Failure>

    /// Creates a publisher that buffers elements received from an upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy for initially populating the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    public init(
      upstream: Upstream, size: Int, prefetch: PrefetchStrategy,
      whenFull: BufferingStrategy<Failure>
    ) {
      self.upstream = upstream
      self.size = size
      self.prefetch = prefetch
      self.whenFull = whenFull
    }

    /// Attaches the subscriber through the buffer.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: BufferSubscription(self, downstream: subscriber))
    }
  }
}

/// The subscription of `buffer(size:prefetch:whenFull:)`, in Combine's shape.
///
/// - It asks upstream at once (`.max(size)` to keep full, `.unlimited` by request), then
///   hands itself downstream.
/// - Values wait in the buffer until downstream asks; a full buffer drops the newest or
///   oldest value, or ends with the custom error (which, like an upstream failure, is
///   delivered even with no outstanding demand, ahead of the buffered values).
/// - A finish waits for the buffered values to be asked for.
/// - To keep full, each value handed downstream is asked for again upstream.
/// - A cancel before the subscription does nothing; the subscription keeps its downstream
///   for its whole life.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``Lifecycle`` and its ``BufferStateMachine``, which
///   decides; this class carries out its actions once unlocked, so downstream, upstream
///   and the custom error's closure run without the lock.
private final class BufferSubscription<Upstream: Publisher, Downstream: Subscriber>:
  Guarded<Lifecycle<BufferStateMachine<Upstream.Output, Upstream.Failure>>>, Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let size: Int
  private let prefetch: Publishers.PrefetchStrategy
  private let whenFull: Publishers.BufferingStrategy<Failure>
  private let downstream: Downstream

  init(_ buffer: Publishers.Buffer<Upstream>, downstream: Downstream) {
    size = buffer.size
    prefetch = buffer.prefetch
    whenFull = buffer.whenFull
    self.downstream = downstream
    super.init(state: Lifecycle(BufferStateMachine(size: buffer.size)))
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    switch withLock({ $0.valueArrived(input, whenFull: whenFull) }) {
    case .drop:
      return .none
    case .deliver:
      return deliver()
    case .overflow(let subscription):
      subscription.cancel()
      return .none
    }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .deliver = withLock({ $0.completed(completion) }) else { return }
    _ = deliver()
  }

  func request(_ demand: Subscribers.Demand) {
    guard case .deliver(let subscription) = withLock({ $0.demandRequested(demand) }) else {
      return
    }
    let refill = deliver()
    if refill != .none { subscription.request(refill) }
  }

  func cancel() { terminate { $0.cancelled() }?.cancel() }

  /// Hands downstream what it asked for, then the completion when it is due; returns what
  /// to ask upstream for to keep the buffer full.
  private func deliver() -> Subscribers.Demand {
    var refill = Subscribers.Demand.none
    lock.lock()
    var step = stateAssumingLocked.nextDelivery()
    while true {
      switch step {
      case .idle:
        lock.unlock()
        return refill
      case .complete:
        let completion = stateAssumingLocked.machine.terminal
        lock.unlock()
        if let completion { downstream.receive(completion: completion) }
        return refill
      case .values(let batch):
        lock.unlock()
        var more = Subscribers.Demand.none
        for value in batch { more += downstream.receive(value) }
        if prefetch == .keepFull { refill += batch.count }
        lock.lock()
        step = stateAssumingLocked.batchDelivered(returning: more)
      }
    }
  }

  var description: String { "Buffer" }

  var customMirror: Mirror {
    withLock { state in
      Mirror(
        self,
        children: [
          "values": state.machine.values, "state": state.status,
          "downstreamDemand": state.machine.demand, "terminal": state.machine.terminal as Any,
        ], ancestorRepresentation: .suppressed)
    }
  }

  var playgroundDescription: Any { description }
}
