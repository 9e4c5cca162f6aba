/// A subscription waiting for a future's result: the future tells it once the promise
/// is called. A protocol rather than a base class, so that the subscription can keep
/// its own state in ``Guarded``.
protocol FutureWaiter<Output, Failure>: AnyObject {
  /// The kind of value the future produces.
  associatedtype Output
  /// The kind of error the future may fail with.
  associatedtype Failure: Error

  /// The future's result has arrived; called once, without the future's lock.
  func fulfill(_ result: Result<Output, Failure>)
}

/// The state of a ``Future``: its result, or the subscriptions waiting for it.
///
/// A value type with no lock of its own: the future keeps it under its lock, feeds it
/// events, and tells the waiting subscriptions once it has unlocked (they call their
/// subscribers).
struct FutureStateMachine<Output, Failure: Error> {
  /// Whether the promise has been called.
  private enum State {
    /// Not yet: these subscriptions wait for the result.
    case pending(waiting: [any FutureWaiter<Output, Failure>])
    /// The promise was called with this result; later calls are ignored.
    case fulfilled(Result<Output, Failure>)
  }

  /// Nobody waits yet.
  private var state = State.pending(waiting: [])

  /// What to do when the promise is called.
  enum FulfillAction {
    /// The promise was called before: this call is ignored.
    case ignore
    /// Tell these subscriptions the result.
    case notify([any FutureWaiter<Output, Failure>])
  }

  /// The promise was called with `result`; only its first call counts.
  mutating func fulfill(_ result: Result<Output, Failure>) -> FulfillAction {
    switch state {
    case .pending(let waiting):
      state = .fulfilled(result)
      return .notify(waiting)
    case .fulfilled:
      // The promise was called again: as in Combine, only the first result counts.
      return .ignore
    }
  }

  /// What to do with a new subscription.
  enum SubscribeAction {
    /// The result is not there yet: the subscription waits for it.
    case wait
    /// Tell the subscription this result once it is handed to its subscriber.
    case fulfill(Result<Output, Failure>)
  }

  /// A subscriber attached with `waiter`.
  mutating func subscribed(_ waiter: any FutureWaiter<Output, Failure>) -> SubscribeAction {
    switch state {
    case .fulfilled(let result):
      return .fulfill(result)
    case .pending(var waiting):
      // Emptied first, so that the array is not shared and grows in place.
      state = .pending(waiting: [])
      waiting.append(waiter)
      state = .pending(waiting: waiting)
      return .wait
    }
  }

  /// A subscription that was waiting was cancelled or delivered: it no longer waits.
  mutating func remove(_ waiter: AnyObject) {
    switch state {
    case .pending(var waiting):
      // Emptied first, so that the array is not shared and shrinks in place.
      state = .pending(waiting: [])
      waiting.removeAll { $0 === waiter }
      state = .pending(waiting: waiting)
    case .fulfilled:
      // Nobody waits once the result is in.
      break
    }
  }
}
