/// The state of a `debounce` subscription between values: the latest value, whether it
/// waits for its timer, the timer, and the subscriber's demand.
///
/// A value type with no lock of its own: ``DebounceSubscription`` keeps it under its
/// lock, feeds it events, and carries out the returned action once it has unlocked (a
/// timer is cancelled, a value delivered or released, never under the lock). Values,
/// timer firings and the end arrive only while the subscription is subscribed, and the
/// machine ends with that status (``cancelled()``); each event switches on every state,
/// and one that cannot happen in a state stops the program, saying so.
struct DebounceStateMachine<Value> {
  /// Whether the latest value waits for its timer. Every state keeps the last value,
  /// kept after it is published or dropped, as Combine keeps it (its mirror shows it).
  private enum State {
    /// Nothing waits.
    case idle(latest: Value?)
    /// `latest` is published, or dropped, when the current generation's timer fires.
    case due(latest: Value)
    /// The subscription completed or was cancelled.
    case ended(latest: Value?)
  }

  /// No value yet.
  private var state = State.idle(latest: nil)
  /// The newest timer; it outlives the value it was started for until it fires or is
  /// replaced.
  private var timer = TimerSlot()
  /// What the subscriber has asked for and not yet received.
  private(set) var demand = Subscribers.Demand.none

  /// The latest value, for the subscription's mirror.
  var latest: Value? {
    switch state {
    case .idle(let latest), .ended(let latest): latest
    case .due(let latest): latest
    }
  }

  /// What to do when a value arrives.
  enum ValueAction {
    /// Schedule a timer of the given generation; release the replaced value (if any)
    /// once unlocked, as its `deinit` may run any code.
    case startTimer(generation: Int, replaced: Value?)
  }

  /// What to do when a timer fires.
  enum FireAction {
    /// The timer is stale, or nothing is due: do nothing.
    case ignore
    /// Cancel the fired timer (it repeats) and deliver the value.
    case deliver(Value, stopping: (any Cancellable)?)
    /// Cancel the fired timer and drop the value: the subscriber has no demand.
    case drop(stopping: (any Cancellable)?)
  }

  /// A value arrived: it becomes the latest and waits for a new timer.
  mutating func valueArrived(_ value: Value) -> ValueAction {
    switch state {
    case .idle(let replaced):
      state = .due(latest: value)
      return .startTimer(generation: timer.nextGeneration(), replaced: replaced)
    case .due(let replaced):
      state = .due(latest: value)
      return .startTimer(generation: timer.nextGeneration(), replaced: replaced)
    case .ended:
      preconditionFailure("Internal inconsistency: a value reached a debounce that ended")
    }
  }

  /// The scheduler returned the timer of `generation`; it is kept only if its value is
  /// still due and no newer value arrived meanwhile. (The timer is scheduled without the
  /// lock, so it may come back after its value fired, or after the end.)
  mutating func timerScheduled(_ newTimer: any Cancellable, generation: Int)
    -> TimerSlot.StoreAction
  {
    switch state {
    case .due:
      return timer.store(newTimer, of: generation, isWanted: true)
    case .idle, .ended:
      return timer.store(newTimer, of: generation, isWanted: false)
    }
  }

  /// The timer of `generation` fired: the due value goes out if the subscriber has
  /// demand.
  ///
  /// A timer that fires before the subscription has stored it stops the replaced one
  /// stored instead; ``timerScheduled(_:generation:)`` then cancels the one that fired.
  mutating func timerFired(generation: Int) -> FireAction {
    switch state {
    case .idle:
      // Its value already went: a stale firing of a repeating timer.
      return .ignore
    case .due(let value):
      guard timer.isCurrent(generation) else { return .ignore }
      state = .idle(latest: value)
      let fired = timer.take()
      guard demand > .none else { return .drop(stopping: fired) }
      demand -= 1
      return .deliver(value, stopping: fired)
    case .ended:
      preconditionFailure("Internal inconsistency: a debounce's timer fired after it ended")
    }
  }

  /// The subscriber asked for more, or returned more demand from a delivery. (A delivery
  /// returns its demand without the lock, so it may come back after the end; it still
  /// counts there, as in Combine's mirror, but nothing is delivered any more.)
  mutating func demandAdded(_ additional: Subscribers.Demand) {
    switch state {
    case .idle, .due, .ended: demand += additional
    }
  }

  /// The subscription completed or was cancelled: nothing is due any more.
  ///
  /// - Returns: The timer to cancel once unlocked. The latest value is kept, as in
  ///   Combine.
  mutating func cancelled() -> (any Cancellable)? {
    switch state {
    case .idle(let latest):
      state = .ended(latest: latest)
    case .due(let latest):
      state = .ended(latest: latest)
    case .ended:
      preconditionFailure("Internal inconsistency: a debounce ended twice")
    }
    return timer.take()
  }
}
