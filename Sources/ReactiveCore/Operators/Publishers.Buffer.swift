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

/// Holds up to `size` values between upstream and downstream, delivering them as
/// downstream demand allows; one thread at a time drains the buffer.
private final class BufferSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var values: [Input] = []
  @exclusivity(unchecked)
  private var head = 0
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var completion: Subscribers.Completion<Failure>?
  @exclusivity(unchecked)
  private var isDraining = false
  private let size: Int
  private let prefetch: Publishers.PrefetchStrategy
  private let whenFull: Publishers.BufferingStrategy<Failure>

  init(_ buffer: Publishers.Buffer<Upstream>, downstream: Downstream) {
    size = buffer.size
    prefetch = buffer.prefetch
    whenFull = buffer.whenFull
    self.downstream = downstream
  }

  private var buffered: Int { values.count - head }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    target.receive(subscription: self)
    subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let failure = lock.withLock { () -> Failure? in
      guard case .subscribed = status else { return nil }
      guard buffered >= size else {
        values.append(input)
        return nil
      }
      switch whenFull {
      case .dropNewest: return nil
      case .dropOldest:
        head += 1
        values.append(input)
        return nil
      case .customError(let makeError): return makeError()
      }
    }
    if let failure {
      let upstream = lock.withLock { () -> (any Subscription)? in
        defer {
          status = .terminal
          values = []
          head = 0
          completion = .failure(failure)
        }
        return status.subscription
      }
      upstream?.cancel()
    }
    drain()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      guard case .subscribed = status else { return }
      status = .terminal
      self.completion = completion
    }
    drain()
  }

  func request(_ additional: Subscribers.Demand) {
    lock.withLock { demand += additional }
    drain()
  }

  private enum Next {
    case value(Input, Downstream, (any Subscription)?)
    case completion(Subscribers.Completion<Failure>, Downstream)
  }

  private func drain() {
    let mayDrain = lock.withLock { () -> Bool in
      guard !isDraining else { return false }
      isDraining = true
      return true
    }
    guard mayDrain else { return }
    while true {
      let next = lock.withLock { () -> Next? in
        guard let downstream else {
          isDraining = false
          return nil
        }
        if buffered > 0, demand > 0 {
          let value = values[head]
          head += 1
          if head > 64, head * 2 > values.count {
            values.removeFirst(head)
            head = 0
          }
          demand -= 1
          return .value(value, downstream, prefetch == .keepFull ? status.subscription : nil)
        }
        if buffered == 0, let completion {
          self.downstream = nil
          isDraining = false
          return .completion(completion, downstream)
        }
        isDraining = false
        return nil
      }
      switch next {
      case .value(let value, let target, let upstream)?:
        let more = target.receive(value)
        if more > 0 { lock.withLock { demand += more } }
        upstream?.request(.max(1))
      case .completion(let completion, let target)?:
        target.receive(completion: completion)
        return
      case nil:
        return
      }
    }
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        downstream = nil
        values = []
        head = 0
      }
      return (status.subscription, downstream)
    }
    taken.0?.cancel()
  }

  var description: String { "Buffer" }
}
