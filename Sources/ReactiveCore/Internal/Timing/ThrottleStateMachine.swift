/// The state of a `throttle` subscription: what is scheduled to go out, when the last
/// value went out, and the subscriber's demand.
///
/// A value type with no lock of its own: ``ThrottleSubscription`` keeps it under its
/// lock, feeds it events, and carries out the returned action once it has unlocked
/// (scheduling, delivering, releasing a dropped value). At most one emission is
/// scheduled at a time; values arriving meanwhile replace its value or are dropped.
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

  /// A value arrived at `now`.
  mutating func valueArrived(_ value: Value, now: Context.SchedulerTimeType) -> ValueAction {
    guard demand > .none else { return .drop }
    switch state {
    case .idle:
      let due = lastEmission.map { Swift.max(now, $0.advanced(by: interval)) } ?? now
      demand -= 1
      state = .value(value)
      return due == now ? .scheduleNow : .schedule(after: due)
    case .value(let scheduled):
      guard latest else { return .drop }
      state = .value(value)
      return .release(scheduled)
    case .completion(let completion):
      guard latest else { return .drop }
      state = .valueThenCompletion(value, completion)
      return .drop
    case .valueThenCompletion(let scheduled, let completion):
      guard latest else { return .drop }
      state = .valueThenCompletion(value, completion)
      return .release(scheduled)
    }
  }

  /// The upstream completed.
  mutating func completionArrived(_ completion: Subscribers.Completion<Failure>)
    -> CompletionAction
  {
    switch state {
    case .idle, .completion:
      state = .completion(completion)
      return .scheduleNow
    case .value(let value), .valueThenCompletion(let value, _):
      state = .valueThenCompletion(value, completion)
      return .followValue
    }
  }

  /// The scheduled emission runs; `now` is the clock read for a value alone, `nil`
  /// otherwise (and then the time of the last emission stays as it was).
  mutating func emit(now: Context.SchedulerTimeType?) -> Emission {
    defer { state = .idle }
    switch state {
    case .idle: return .nothing
    case .value(let value):
      if let now { lastEmission = now }
      return .value(value)
    case .completion(let completion): return .completion(completion)
    case .valueThenCompletion(let value, let completion):
      return .valueThenCompletion(value, completion)
    }
  }

  /// The subscriber asked for more, or returned more demand from a delivery.
  mutating func demandAdded(_ additional: Subscribers.Demand) { demand += additional }

  /// The subscription was cancelled: nothing scheduled goes out.
  ///
  /// - Returns: What was scheduled, for the caller to release once unlocked.
  mutating func cancelled() -> Emission { emit(now: nil) }
}
