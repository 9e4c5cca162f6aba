/// The state of a `throttle` subscription: what is scheduled to go out, when the last
/// value went out, and the subscriber's demand.
///
/// A value type with no lock of its own: ``ThrottleSubscription`` keeps it under its
/// lock, feeds it events, and carries out the returned action once it has unlocked
/// (scheduling, delivering, releasing a dropped value). At most one emission is
/// scheduled at a time; values arriving meanwhile replace its value or are dropped.
///
/// Values and the completion arrive only while the subscription is subscribed, and the
/// machine ends with the subscription (an emission that completes, or a cancel). Each
/// event switches on every state, and one that cannot happen in a state stops the
/// program, saying so.
struct ThrottleStateMachine<Value, Failure: Error, Context: Scheduler> {
  /// What the scheduled emission will deliver.
  private enum State {
    /// Nothing is scheduled.
    case idle
    /// A value is scheduled.
    case value(Value)
    /// The completion is scheduled alone.
    case completion(Subscribers.Completion<Failure>)
    /// A value is scheduled, and the completion arrived after it: both go out together.
    case valueThenCompletion(Value, Subscribers.Completion<Failure>)
    /// The completion went out, or the subscription was cancelled.
    case ended
  }

  /// What an emission delivers, taken out of the state machine.
  enum Emission {
    /// Nothing: the emission was already made, or the subscription was cancelled.
    case nothing
    /// A value alone.
    case value(Value)
    /// The completion alone.
    case completion(Subscribers.Completion<Failure>)
    /// A value, then the completion.
    case valueThenCompletion(Value, Subscribers.Completion<Failure>)

    /// Whether the emission ends the subscription.
    var completes: Bool {
      switch self {
      case .completion, .valueThenCompletion: true
      case .nothing, .value: false
      }
    }
  }

  /// What to do when a value arrives.
  enum ValueAction {
    /// Nothing: the value is dropped, for want of demand or because `latest` is `false`.
    case drop
    /// The value replaced the scheduled one, which is released once unlocked, as its
    /// `deinit` may run any code.
    case release(Value)
    /// Schedule an emission at once.
    case scheduleNow
    /// Schedule an emission at the given time, `interval` after the last value went out.
    case schedule(after: Context.SchedulerTimeType)
  }

  /// What to do when the completion arrives.
  enum CompletionAction {
    /// Schedule an emission at once for the completion.
    case scheduleNow
    /// A value is scheduled: the completion goes out right after it.
    case followValue
  }

  /// Nothing scheduled yet.
  private var state = State.idle
  /// When the last value went out alone; the next waits until `interval` after it.
  private var lastEmission: Context.SchedulerTimeType?
  /// What the subscriber has asked for and not yet received.
  private var demand = Subscribers.Demand.none
  /// The time that must pass between two values going out.
  private let interval: Context.SchedulerTimeType.Stride
  /// Whether a value arriving while one is scheduled replaces it.
  private let latest: Bool

  /// Creates the state machine of a `throttle(for: interval, …, latest: latest)`.
  init(interval: Context.SchedulerTimeType.Stride, latest: Bool) {
    self.interval = interval
    self.latest = latest
  }

  /// Whether the scheduled emission is a value alone: only then does emitting read the
  /// clock (Combine's does, and a recording scheduler sees it).
  var emitsValueAlone: Bool {
    if case .value = state { true } else { false }
  }

  /// A value arrived at `now`. Fed only while subscribed, so neither the completion nor
  /// the end has come.
  mutating func valueArrived(_ value: Value, now: Context.SchedulerTimeType) -> ValueAction {
    switch state {
    case .idle:
      guard demand > .none else { return .drop }
      let due = lastEmission.map { Swift.max(now, $0.advanced(by: interval)) } ?? now
      demand -= 1
      state = .value(value)
      return due == now ? .scheduleNow : .schedule(after: due)
    case .value(let scheduled):
      guard demand > .none, latest else { return .drop }
      state = .value(value)
      return .release(scheduled)
    case .completion, .valueThenCompletion:
      preconditionFailure("Internal inconsistency: a value reached a completed throttle")
    case .ended:
      preconditionFailure("Internal inconsistency: a value reached a throttle that ended")
    }
  }

  /// The upstream completed. Fed once, while subscribed.
  mutating func completionArrived(_ completion: Subscribers.Completion<Failure>)
    -> CompletionAction
  {
    switch state {
    case .idle:
      state = .completion(completion)
      return .scheduleNow
    case .value(let value):
      state = .valueThenCompletion(value, completion)
      return .followValue
    case .completion, .valueThenCompletion:
      preconditionFailure("Internal inconsistency: a throttle's upstream completed twice")
    case .ended:
      preconditionFailure("Internal inconsistency: a completion reached an ended throttle")
    }
  }

  /// The scheduled emission runs; `now` is the clock read for a value alone, `nil`
  /// otherwise (and then the time of the last emission stays as it was). Fed only while
  /// the subscription holds its upstream, which an emission that completes ends.
  mutating func emit(now: Context.SchedulerTimeType?) -> Emission {
    switch state {
    case .idle:
      return .nothing
    case .value(let value):
      state = .idle
      if let now { lastEmission = now }
      return .value(value)
    case .completion(let completion):
      state = .ended
      return .completion(completion)
    case .valueThenCompletion(let value, let completion):
      state = .ended
      return .valueThenCompletion(value, completion)
    case .ended:
      preconditionFailure("Internal inconsistency: a throttle emitted after it ended")
    }
  }

  /// The subscriber asked for more, or returned more demand from a delivery (which may
  /// come back after the end, where it no longer matters).
  mutating func demandAdded(_ additional: Subscribers.Demand) { demand += additional }

  /// The subscription was cancelled (again, possibly: a cancel after the end does
  /// nothing more): nothing scheduled goes out.
  ///
  /// - Returns: What was scheduled, for the caller to release once unlocked.
  mutating func cancelled() -> Emission {
    defer { state = .ended }
    switch state {
    case .idle, .ended: return .nothing
    case .value(let value): return .value(value)
    case .completion(let completion): return .completion(completion)
    case .valueThenCompletion(let value, let completion):
      return .valueThenCompletion(value, completion)
    }
  }
}
