extension Publisher where Failure == Never {
  /// The elements produced by the publisher, as an asynchronous sequence.
  ///
  /// Each iteration requests one element; cancelling the iterating task cancels the
  /// subscription.
  ///
  ///     for await value in [1, 2, 3].publisher.values {
  ///         print(value)
  ///     }
  ///     // Prints "1", "2", "3"
  public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
  /// The elements produced by the publisher, as a throwing asynchronous sequence.
  ///
  /// The sequence throws the publisher's failure; cancelling the iterating task cancels
  /// the subscription.
  public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A publisher that exposes its elements as an asynchronous sequence.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  /// The type of element produced by this asynchronous sequence.
  public typealias Element = P.Output

  private let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a
  /// throwing asynchronous sequence.
  ///
  /// - Parameter publisher: An upstream publisher.
  public init(_ publisher: P) { self.publisher = publisher }

  /// Creates the asynchronous iterator that produces elements of this sequence.
  public func makeAsyncIterator() -> Iterator {
    Iterator(inner: AsyncBridge(publisher))
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    let inner: AsyncBridge<P>

    /// Produces the next element, or `nil` when the publisher finishes or the task is
    /// cancelled.
    public mutating func next() async -> P.Output? {
      await inner.next()
    }
  }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  /// The type of element produced by this asynchronous sequence.
  public typealias Element = P.Output

  private let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a
  /// throwing asynchronous sequence.
  ///
  /// - Parameter publisher: An upstream publisher.
  public init(_ publisher: P) { self.publisher = publisher }

  /// Creates the asynchronous iterator that produces elements of this sequence.
  public func makeAsyncIterator() -> Iterator {
    Iterator(inner: AsyncBridge(publisher))
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    let inner: AsyncBridge<P>

    /// Produces the next element, `nil` when the publisher finishes or the task is
    /// cancelled, or throws the publisher's failure.
    public mutating func next() async throws -> P.Output? {
      try await inner.next()
    }
  }
}

/// Subscribes to a publisher and hands out one element per `next()`, requesting one at a
/// time.
final class AsyncBridge<P: Publisher>: Subscriber, Cancellable, @unchecked Sendable {
  typealias Input = P.Output
  typealias Failure = P.Failure

  /// Unchecked `Sendable`: each pending event moves from the delivering thread to the one
  /// awaiting it and is never shared.
  private enum Pending: @unchecked Sendable {
    case value(P.Output)
    case completion(Subscribers.Completion<P.Failure>)
  }

  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var publisher: P?
  @exclusivity(unchecked)
  private var waiting: UnsafeContinuation<Pending, Never>?
  @exclusivity(unchecked)
  private var buffered: [Pending] = []
  @exclusivity(unchecked)
  private var isFinished = false

  init(_ publisher: P) { self.publisher = publisher }

  func next() async throws(P.Failure) -> P.Output? {
    if let publisher = lock.withLock({ () -> P? in
      defer { self.publisher = nil }
      return self.publisher
    }) {
      publisher.subscribe(self)
    }
    // The cancellation handler runs concurrently; it reaches the bridge through an
    // existential so it captures no generic metadata.
    let handle: any Cancellable & Sendable = self
    let pending = await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Pending, Never>) in
        let ready = lock.withLock { () -> Pending? in
          if !buffered.isEmpty { return buffered.removeFirst() }
          if isFinished { return .completion(.finished) }
          waiting = continuation
          return nil
        }
        if let ready {
          continuation.resume(returning: ready)
        } else {
          lock.withLock { status.subscription }?.request(.max(1))
        }
      }
    } onCancel: {
      handle.cancel()
    }
    switch pending {
    case .value(let value): return value
    case .completion(.finished): return nil
    case .completion(.failure(let error)): throw error
    }
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = status, !isFinished else { return false }
      status = .subscribed(subscription)
      return true
    }
    if !accepted { subscription.cancel() }
  }

  func receive(_ input: P.Output) -> Subscribers.Demand {
    deliver(.value(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<P.Failure>) {
    lock.withLock {
      status = .terminal
    }
    deliver(.completion(completion))
  }

  private func deliver(_ pending: Pending) {
    let continuation = lock.withLock { () -> UnsafeContinuation<Pending, Never>? in
      if case .completion = pending { isFinished = true }
      guard let waiting else {
        buffered.append(pending)
        return nil
      }
      self.waiting = nil
      return waiting
    }
    continuation?.resume(returning: pending)
  }

  /// Ends iteration: cancels the subscription and wakes a waiting `next()` with the end.
  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, UnsafeContinuation<Pending, Never>?) in
      defer {
        status = .terminal
        isFinished = true
        waiting = nil
        buffered = []
      }
      return (status.subscription, waiting)
    }
    taken.0?.cancel()
    taken.1?.resume(returning: .completion(.finished))
  }

  deinit {
    lock.withLock { status.subscription }?.cancel()
  }
}
