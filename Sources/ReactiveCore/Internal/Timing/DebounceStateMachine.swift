/// The state of a `debounce` subscription between values: the latest value, whether it
/// waits for its timer, the timer, and the subscriber's demand.
///
/// A value type with no lock of its own: ``DebounceSubscription`` keeps it under its
/// lock, feeds it events, and carries out the returned action once it has unlocked (a
/// timer is cancelled, a value delivered or released, never under the lock). Events
/// arrive only while the subscription is subscribed; ``cancelled()`` ends that.
struct DebounceStateMachine<Value> {
  /// Whether the latest value waits for its timer.
  private enum State {
    /// Nothing waits; holds the last value, kept after it is published or dropped, as
    /// Combine keeps it (its mirror shows it).
    case idle(latest: Value?)
    /// `latest` is published, or dropped, when the current generation's timer fires.
    case due(latest: Value)
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
    case .idle(let latest): latest
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
    let replaced = latest
    state = .due(latest: value)
    return .startTimer(generation: timer.nextGeneration(), replaced: replaced)
  }

  /// The scheduler returned the timer of `generation`; it is kept only if its value is
  /// still due and no newer value arrived meanwhile.
  mutating func timerScheduled(_ newTimer: any Cancellable, generation: Int)
    -> TimerSlot.StoreAction
  {
    let isDue = if case .due = state { true } else { false }
    return timer.store(newTimer, of: generation, isWanted: isDue)
  }

  /// The timer of `generation` fired: the due value goes out if the subscriber has
  /// demand.
  ///
  /// A timer that fires before the subscription has stored it stops the replaced one
  /// stored instead; ``timerScheduled(_:generation:)`` then cancels the one that fired.
  mutating func timerFired(generation: Int) -> FireAction {
    guard timer.isCurrent(generation), case .due(let value) = state else { return .ignore }
    state = .idle(latest: value)
    let fired = timer.take()
    guard demand > .none else { return .drop(stopping: fired) }
    demand -= 1
    return .deliver(value, stopping: fired)
  }

  /// The subscriber asked for more, or returned more demand from a delivery.
  mutating func demandAdded(_ additional: Subscribers.Demand) { demand += additional }

  /// The subscription completed or was cancelled: nothing is due any more.
  ///
  /// - Returns: The timer to cancel once unlocked. The latest value is kept, as in
  ///   Combine.
  mutating func cancelled() -> (any Cancellable)? {
    state = .idle(latest: latest)
    return timer.take()
  }
}
