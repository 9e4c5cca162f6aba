import Dispatch
import Observation
import ReactiveCore

extension Publishers {
  /// A publisher of an expression over `@Observable` state: it sends the expression's
  /// value when subscribed, then its new value after every change of anything the
  /// expression read — the Combine counterpart of the Observation module's
  /// `Observations`, and named after it.
  ///
  ///     let title = Publishers.Observations(scheduler: DispatchQueue.main) {
  ///         model.title + " — " + model.subtitle
  ///     }
  ///     let cancellable = title.sink { print($0) }
  ///
  /// - Each evaluation tracks what it reads anew, so a branch that starts reading another
  ///   property is followed. The expression runs twice per evaluation: once to track what
  ///   it reads, once after tracking is in place for the value sent, so that a change made
  ///   on another thread in between is not lost.
  /// - A change is noticed as it is about to happen (Observation reports changes before
  ///   they are made), so the new value is read on `scheduler` once the change is done;
  ///   several changes before that evaluation give one value.
  /// - Demand is honoured without an unbounded buffer: while the subscriber has no demand
  ///   only the latest value waits.
  /// - Cancelling stops tracking and releases the expression and what it captured.
  public struct Observations<Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    @usableFromInline
    let expression: () -> Output
    @usableFromInline
    let schedule: (@escaping () -> Void) -> Void

    /// Creates a publisher of `expression` that evaluates it again on `scheduler` after
    /// each change.
    ///
    /// - Parameters:
    ///   - scheduler: Where the expression is evaluated after a change, and values are
    ///     delivered.
    ///   - expression: Reads `@Observable` state and computes the value.
    @inlinable
    public init<S: Scheduler>(scheduler: S, _ expression: @escaping () -> Output) {
      self.expression = expression
      schedule = { scheduler.schedule($0) }
    }

    /// Creates a publisher of `expression` that evaluates it again on a serial dispatch
    /// queue of its own after each change.
    ///
    /// - Parameter expression: Reads `@Observable` state and computes the value.
    public init(_ expression: @escaping () -> Output) {
      self.init(scheduler: DispatchQueue(label: "ripple.observations"), expression)
    }

    /// Attaches the subscriber: it receives the current value at once (with demand).
    ///
    /// Inlinable, so that the subscription is specialised for the subscriber's type where
    /// it subscribes: unspecialised, each change paid about 3,000 instructions in generic
    /// metadata lookups (`Optional<Downstream>` and the like, measured with callgrind).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      let subscription = ObservationSubscription(
        downstream: subscriber, expression: expression, schedule: schedule)
      subscriber.receive(subscription: subscription)
      subscription.evaluate()
    }
  }
}

/// Tracks one subscriber's expression: evaluates it under `withObservationTracking`, and on
/// a change schedules one evaluation.
///
/// - Note: Thread-safe. Its box's lock guards the state; the latest value waits in a
///   `DemandBuffer` of one.
@usableFromInline
final class ObservationSubscription<Downstream: Subscriber>: Subscription,
  ObservationChangeTarget, CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never {
  @usableFromInline
  typealias Output = Downstream.Input

  /// Everything about the subscription that changes; guarded by its box's lock.
  @usableFromInline
  struct State {
    /// The expression, until cancelled.
    @usableFromInline
    var expression: (() -> Output)?
    /// Whether an evaluation is scheduled and has not started yet.
    @usableFromInline
    var isScheduled = false

    @inlinable
    init(expression: (() -> Output)?) { self.expression = expression }
  }

  /// The subscription's state behind its lock.
  @usableFromInline
  let state: LockedBox<State>
  @usableFromInline
  let schedule: (@escaping () -> Void) -> Void
  @usableFromInline
  let buffer: DemandBuffer<Downstream, Void>
  /// The evaluation a change schedules. Made in `init`, which is specialised for the
  /// subscriber's type where the publisher is subscribed, so that the scheduled
  /// `evaluate()` is the specialised one: a change itself arrives through the
  /// `ObservationChangeTarget` witness, which is always this module's generic code.
  /// Written only in `init`.
  @usableFromInline
  var scheduledEvaluation: () -> Void = {}

  @inlinable
  init(
    downstream: Downstream, expression: @escaping () -> Output,
    schedule: @escaping (@escaping () -> Void) -> Void
  ) {
    state = LockedBox(State(expression: expression))
    self.schedule = schedule
    buffer = DemandBuffer(downstream, limit: 1)
    scheduledEvaluation = { [weak self] in self?.evaluate() }
  }

  /// Evaluates the expression, tracking what it reads, and offers the value.
  @inlinable
  func evaluate() {
    let expression = state.withLock { state -> (() -> Output)? in
      state.isScheduled = false
      return state.expression
    }
    guard let expression else { return }
    // Through a non-generic existential: the change handler must be `@Sendable`, and
    // capturing this generic class would capture its non-`Sendable` metatypes.
    weak let target: (any ObservationChangeTarget)? = self
    _ = withObservationTracking(expression) { target?.changed() }
    // Tracking starts only once the tracked evaluation has returned: a change made in
    // between (on another thread) would be missed. A second read, after tracking is in
    // place, sees it; any later change is tracked.
    buffer.push(expression())
  }

  /// Something the expression read is about to change: evaluate once it has.
  @inlinable
  func changed() {
    let schedules = state.withLock { state -> Bool in
      guard state.expression != nil, !state.isScheduled else { return false }
      state.isScheduled = true
      return true
    }
    if schedules { schedule(scheduledEvaluation) }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing, as for the CombineExt operators here.
    guard demand > 0 else { return }
    buffer.addDemand(demand)
  }

  @inlinable
  func cancel() {
    let released = state.withLock { state -> (() -> Output)? in
      defer { state.expression = nil }
      return state.expression
    }
    buffer.release()
    _ = released
  }

  @usableFromInline
  var description: String { "Observations" }
}

/// What a tracked expression reports its changes to.
@usableFromInline
protocol ObservationChangeTarget: AnyObject, Sendable {
  /// Something the expression read is about to change.
  func changed()
}
