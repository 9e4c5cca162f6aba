extension AsyncSequence where Self: Sendable {
  /// A publisher that iterates this asynchronous sequence in a task and publishes its
  /// elements; cancelling the subscription cancels the task.
  ///
  /// This goes beyond Combine, which has no bridge in this direction.
  ///
  ///     let stream = AsyncStream<Int> { $0.yield(1); $0.finish() }
  ///     let cancellable = stream.publisher.sink(receiveCompletion: { _ in }) { print($0) }
  ///     // Prints "1" (asynchronously)
  public var publisher: AsyncSequencePublisher<Self> { AsyncSequencePublisher(self) }
}

/// A publisher of the elements of an asynchronous sequence.
///
/// Each subscription starts its own task, which iterates only as far as the subscriber's
/// demand allows. The failure type is `any Error` (the sequence may throw); a task
/// cancelled by the subscription ends without a completion.
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
  /// The kind of values published by this publisher.
  public typealias Output = Base.Element
  /// The kind of errors this publisher might publish.
  public typealias Failure = any Error

  /// The sequence whose elements are published.
  public let base: Base

  /// Creates a publisher of `base`'s elements.
  ///
  /// - Parameter base: The asynchronous sequence to iterate.
  public init(_ base: Base) { self.base = base }

  /// Starts a task that iterates the sequence as the subscriber demands.
  public func receive<S: Subscriber>(subscriber: S)
  where S.Input == Base.Element, S.Failure == any Error {
    let subscription = AsyncSequenceSubscription(base: base, downstream: subscriber)
    subscriber.receive(subscription: subscription)
  }
}

/// Iterates an asynchronous sequence in a task, parking between elements until there is
/// demand.
private final class AsyncSequenceSubscription<
  Base: AsyncSequence & Sendable, Downstream: Subscriber
>:
  Subscription, AsyncIterating, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == any Error {
  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var parked: CheckedContinuation<Void, Never>?
  @exclusivity(unchecked)
  private var task: Task<Void, Never>?
  private let base: Base

  init(base: Base, downstream: Downstream) {
    self.base = base
    self.downstream = downstream
  }

  func request(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    let (resume, start) = lock.withLock { () -> (CheckedContinuation<Void, Never>?, Bool) in
      guard downstream != nil else { return (nil, false) }
      demand += additional
      defer { parked = nil }
      return (parked, task == nil)
    }
    resume?.resume()
    if start {
      // The task reaches the subscription through an existential so it captures no
      // generic metadata.
      let iterator: any AsyncIterating = self
      let task = Task { await iterator.iterate() }
      lock.withLock { self.task = task }
    }
  }

  /// Waits until there is demand; false once cancelled.
  private func awaitDemand() async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.withLock { () -> Bool in
        if downstream == nil || demand > 0 { return true }
        parked = continuation
        return false
      }
      if ready { continuation.resume() }
    }
    return lock.withLock {
      guard downstream != nil else { return false }
      demand -= 1
      return true
    }
  }

  func iterate() async {
    do {
      for try await element in base {
        guard await awaitDemand(), let target = lock.withLock({ downstream }) else { return }
        let more = target.receive(element)
        if more > 0 { lock.withLock { demand += more } }
      }
      finish(.finished)
    } catch {
      if !Task.isCancelled { finish(.failure(error)) }
    }
  }

  private func finish(_ completion: Subscribers.Completion<any Error>) {
    let target = lock.withLock { () -> Downstream? in
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func cancel() {
    let taken = lock.withLock {
      () -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?, Downstream?) in
      defer {
        downstream = nil
        parked = nil
        task = nil
      }
      return (task, parked, downstream)
    }
    taken.0?.cancel()
    taken.1?.resume()
  }

  var description: String { "AsyncSequence" }
}

/// Something that iterates in a task of its own.
private protocol AsyncIterating: Sendable {
  func iterate() async
}
