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
  Guarded<AsyncSequenceSubscription<Base, Downstream>.State>, Subscription, AsyncIterating,
  CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == any Error {
  /// Everything about the subscription that changes; guarded by the lock.
  struct State {
    /// The subscriber, until the sequence ends or the subscription is cancelled.
    var downstream: Downstream?
    /// Demand not yet met.
    var demand = Subscribers.Demand.none
    /// The iterating task, waiting for demand.
    var parked: CheckedContinuation<Void, Never>?
    /// Whether a request has started the iterating task (set before the task exists).
    var isStarted = false
    /// The iterating task, once started, until cancelled.
    var task: Task<Void, Never>?
  }

  /// What a request must do after unlocking.
  enum Wake {
    /// Nothing: the task is running, or the subscription ended.
    case nothing
    /// Resume the task, which waits for demand.
    case resume(CheckedContinuation<Void, Never>)
    /// Start the iterating task.
    case start
  }

  private let base: Base

  init(base: Base, downstream: Downstream) {
    self.base = base
    super.init(state: State(downstream: downstream))
  }

  func request(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    let wake = withLock { state -> Wake in
      guard state.downstream != nil else { return .nothing }
      state.demand += additional
      if let parked = state.parked.take() { return .resume(parked) }
      guard !state.isStarted else { return .nothing }
      state.isStarted = true
      return .start
    }
    switch wake {
    case .nothing: break
    case .resume(let parked): parked.resume()
    case .start:
      // The task reaches the subscription through an existential so it captures no
      // generic metadata.
      let iterator: any AsyncIterating = self
      let task = Task { await iterator.iterate() }
      withLock { $0.task = task }
    }
  }

  /// Waits until there is demand; false once cancelled.
  private func awaitDemand() async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = withLock { state -> Bool in
        if state.downstream == nil || state.demand > 0 { return true }
        state.parked = continuation
        return false
      }
      if ready { continuation.resume() }
    }
    return withLock { state in
      guard state.downstream != nil else { return false }
      state.demand -= 1
      return true
    }
  }

  func iterate() async {
    do {
      for try await element in base {
        guard await awaitDemand(), let target = withLock({ $0.downstream }) else { return }
        let more = target.receive(element)
        if more > 0 { withLock { $0.demand += more } }
      }
      finish(.finished)
    } catch {
      if !Task.isCancelled { finish(.failure(error)) }
    }
  }

  private func finish(_ completion: Subscribers.Completion<any Error>) {
    let target = withLock { state -> Downstream? in
      defer { state.downstream = nil }
      return state.downstream
    }
    target?.receive(completion: completion)
  }

  func cancel() {
    let ended = withLock { state -> State in
      defer {
        state.downstream = nil
        state.parked = nil
        state.task = nil
      }
      return state
    }
    ended.task?.cancel()
    ended.parked?.resume()
  }

  var description: String { "AsyncSequence" }
}

/// Something that iterates in a task of its own.
private protocol AsyncIterating: Sendable {
  func iterate() async
}
