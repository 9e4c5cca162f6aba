/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it turns each
/// `next()` into one unit of demand and hands each value to the oldest waiting `next()`.
///
/// As in Combine, it subscribes when the iterator is made, several `next()` calls may wait
/// at once (each asks for `.max(1)`; calls made before the subscription arrives are asked
/// for together when it does), and every waiting call is resumed exactly once: with a
/// value, with the end of the sequence, or with the failure (the oldest waiting call gets
/// the failure, the others the end). Cancelling the iterating task ends the sequence for
/// every waiting call and cancels the subscription.
///
/// - Note: Thread-safe. The lock guards its ``Lifecycle`` (status, waiting calls, early
///   demand, an unthrown failure); no
///   continuation is resumed and no subscription is called while it is held.
final class AsyncBridge<Upstream: Publisher>: Guarded<Lifecycle<AsyncBridge<Upstream>.Waiting>>,
  Subscriber,
  Cancellable, @unchecked Sendable
{
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// What one waiting `next()` is resumed with. Unchecked `Sendable`: each outcome moves
  /// from the delivering thread to the one awaiting it and is never shared.
  struct Outcome: @unchecked Sendable {
    let result: Result<Input?, Failure>
    static var end: Outcome { Outcome(result: .success(nil)) }
  }

  typealias Waiter = UnsafeContinuation<Outcome, Never>

  /// The machine of the bridge's ``Lifecycle``: what it keeps beside its status.
  struct Waiting {
    /// The `next()` calls waiting for a value, oldest first.
    var waiting: [Waiter] = []
    /// Demand asked for before the subscription arrived.
    var pendingDemand = Subscribers.Demand.none
    /// Once ended, a failure that no waiting `next()` has thrown yet.
    var unthrownFailure: Failure?

    /// Empties the waiting list, returning what it held.
    mutating func takeWaiting() -> [Waiter] {
      defer { waiting = [] }
      return waiting
    }
  }

  init() { super.init(state: Lifecycle(Waiting())) }

  /// Waits for the next value; `nil` at the end of the sequence or when the calling task
  /// is cancelled (which also cancels the subscription).
  func next() async throws(Failure) -> Input? {
    // The cancellation handler runs concurrently; it reaches the bridge through an
    // existential so it captures no generic metadata.
    let handle: any Cancellable & Sendable = self
    let outcome = await withTaskCancellationHandler {
      await wait()
    } onCancel: {
      handle.cancel()
    }
    return try outcome.result.get()
  }

  /// Waits for the next outcome without watching the calling task for cancellation.
  func wait() async -> Outcome {
    await withUnsafeContinuation { (continuation: Waiter) in
      lock.lock()
      switch stateAssumingLocked.status {
      case .awaitingSubscription:
        stateAssumingLocked.machine.waiting.append(continuation)
        stateAssumingLocked.machine.pendingDemand += 1
        lock.unlock()
      case .subscribed(let subscription):
        stateAssumingLocked.machine.waiting.append(continuation)
        lock.unlock()
        subscription.request(.max(1))
      case .pendingTerminal, .terminal:
        // (Never pending: the bridge delivers its completion at once.)
        let failure = stateAssumingLocked.machine.unthrownFailure.take()
        lock.unlock()
        continuation.resume(returning: failure.map { Outcome(result: .failure($0)) } ?? .end)
      }
    }
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard stateAssumingLocked.adopt(subscription) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    let demand = stateAssumingLocked.machine.pendingDemand
    stateAssumingLocked.machine.pendingDemand = .none
    lock.unlock()
    if demand > .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isSubscribed else {
      let ended = stateAssumingLocked.machine.takeWaiting()
      lock.unlock()
      Self.end(ended)
      return .none
    }
    // Combine traps here too: every value answers one `next()`.
    precondition(
      !stateAssumingLocked.machine.waiting.isEmpty,
      "Received an output without requesting demand")
    let continuation = stateAssumingLocked.machine.waiting.removeFirst()
    lock.unlock()
    continuation.resume(returning: Outcome(result: .success(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    if stateAssumingLocked.hasEnded {
      let ended = stateAssumingLocked.machine.takeWaiting()
      lock.unlock()
      Self.end(ended)
      return
    }
    // A completion before the subscription ends the bridge too, as Combine's does.
    _ = stateAssumingLocked.end()
    guard !stateAssumingLocked.machine.waiting.isEmpty else {
      if case .failure(let failure) = completion {
        stateAssumingLocked.machine.unthrownFailure = failure
      }
      lock.unlock()
      return
    }
    var ended = stateAssumingLocked.machine.takeWaiting()
    let first = ended.removeFirst()
    lock.unlock()
    switch completion {
    case .finished: first.resume(returning: .end)
    case .failure(let failure): first.resume(returning: Outcome(result: .failure(failure)))
    }
    Self.end(ended)
  }

  /// Ends the sequence for every waiting `next()` and cancels the subscription.
  func cancel() {
    lock.lock()
    let ended = stateAssumingLocked.machine.takeWaiting()
    stateAssumingLocked.machine.unthrownFailure = nil
    let subscription = stateAssumingLocked.end()
    lock.unlock()
    subscription?.cancel()
    Self.end(ended)
  }

  private static func end(_ ended: [Waiter]) {
    for continuation in ended { continuation.resume(returning: .end) }
  }
}

/// An async iterator's hold on its ``AsyncBridge``, shared by ``AsyncPublisher`` and
/// ``AsyncThrowingPublisher``.
///
/// It subscribes the bridge when the iterator is made, as Combine does, and cancels the
/// subscription when the last copy of the iterator (and so of this hold) goes away: a loop
/// that breaks out early leaves nothing subscribed.
struct AsyncBridgeHold<Upstream: Publisher> {
  /// The bridge, subscribed to the publisher.
  let bridge: AsyncBridge<Upstream>
  /// Cancels the subscription when the last copy goes away.
  private let reference: AnyCancellable

  /// Subscribes a new bridge to `publisher`.
  init(subscribingTo publisher: Upstream) {
    bridge = AsyncBridge()
    publisher.subscribe(bridge)
    reference = AnyCancellable(object: bridge)
  }
}
