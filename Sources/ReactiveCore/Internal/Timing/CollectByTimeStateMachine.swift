/// The state of a `collect(byTime:)` subscription: the group being gathered, the closed
/// groups waiting for demand, the timer, the completion waiting behind the groups, and
/// which thread drains.
///
/// A value type with no lock of its own: ``CollectByTimeSubscription`` keeps it under
/// its lock, feeds it events, and carries out the returned action once it has unlocked
/// (a timer is cancelled, a group or the completion delivered, the upstream asked). The
/// groups are stored fields, not enum payloads, so that appending never copies them.
struct CollectByTimeStateMachine<Value, Failure: Error> {
  /// Where the subscription stands with its groups.
  private enum State {
    /// Gathering values; the timer (once scheduled) closes a group every stride.
    case collecting(timer: (any Cancellable)?)
    /// The upstream completed: the closed groups drain, then the completion goes out.
    case completing(Subscribers.Completion<Failure>)
    /// The completion went out, or the subscription was cancelled.
    case finished
  }

  /// What to do after a group may have closed.
  enum GroupAction {
    /// A group closed: drain.
    case drain
    /// Nothing to deliver yet.
    case wait
  }

  /// What the draining thread delivers next.
  enum Step {
    /// A closed group, for one unit of demand.
    case group([Value])
    /// The completion: no group is left.
    case completion(Subscribers.Completion<Failure>)
    /// Nothing deliverable: the drain ends.
    case idle
  }

  /// Collecting from the start: the timer is stored once the scheduler returns it.
  private var state = State.collecting(timer: nil)
  /// The group being gathered.
  private var current: [Value] = []
  /// Closed groups; those before ``closedStart`` were delivered.
  private var closed: [[Value]] = []
  /// The first closed group not yet delivered: groups are taken from the front without
  /// shifting the array, which is emptied (keeping its capacity) once all are out.
  private var closedStart = 0
  /// What the subscriber has asked for and not yet received.
  private var demand = Subscribers.Demand.none
  /// Whether a thread is draining: the others leave their work to it.
  private var isDraining = false
  /// The group size that closes a group early, with `.byTimeOrCount`.
  let maxCount: Int?

  /// Creates the state machine; `maxCount` is `.byTimeOrCount`'s count, `nil` for
  /// `.byTime`.
  init(maxCount: Int?) { self.maxCount = maxCount }

  /// Whether a closed group waits for demand.
  private var hasClosedGroup: Bool { closedStart < closed.count }

  /// The scheduler returned the repeating timer.
  ///
  /// - Returns: The timer, if it is no longer wanted (the upstream completed or the
  ///   subscription was cancelled meanwhile), for the caller to cancel once unlocked.
  mutating func timerScheduled(_ timer: any Cancellable) -> (any Cancellable)? {
    guard case .collecting = state else { return timer }
    state = .collecting(timer: timer)
    return nil
  }

  /// A value arrived: it joins the current group, which closes at `maxCount`.
  mutating func valueArrived(_ value: Value) -> GroupAction {
    guard case .collecting = state else { return .wait }
    current.append(value)
    guard let maxCount, current.count >= maxCount else { return .wait }
    closeGroup()
    return .drain
  }

  /// The timer fired: the current group closes unless it is empty.
  mutating func timerFired() -> GroupAction {
    guard case .collecting = state, !current.isEmpty else { return .wait }
    closeGroup()
    return .drain
  }

  /// Moves the current group to the closed ones and starts a new one.
  private mutating func closeGroup() {
    closed.append(current)
    current = []
  }

  /// The upstream completed: a finish closes the current group, a failure discards every
  /// group; the completion waits behind what is left.
  ///
  /// - Returns: The timer, for the caller to cancel once unlocked; then drain.
  mutating func completionArrived(_ completion: Subscribers.Completion<Failure>)
    -> (any Cancellable)?
  {
    let timer: (any Cancellable)? = if case .collecting(let timer) = state { timer } else { nil }
    switch completion {
    case .finished:
      if !current.isEmpty { closed.append(current) }
    case .failure:
      closed = []
      closedStart = 0
    }
    current = []
    state = .completing(completion)
    return timer
  }

  /// Claims the drain.
  ///
  /// - Returns: Whether the caller drains; `false` if another thread is draining.
  mutating func startDraining() -> Bool {
    guard !isDraining else { return false }
    isDraining = true
    return true
  }

  /// Takes what the drain delivers next: a group while there is demand, then the
  /// completion once no group is left. A step other than a group ends the drain.
  mutating func nextStep() -> Step {
    if hasClosedGroup, demand > 0 {
      demand -= 1
      let group = closed[closedStart]
      closedStart += 1
      if closedStart == closed.count {
        closed.removeAll(keepingCapacity: true)
        closedStart = 0
      }
      return .group(group)
    }
    isDraining = false
    if !hasClosedGroup, case .completing(let completion) = state {
      state = .finished
      return .completion(completion)
    }
    return .idle
  }

  /// Ends the drain without a step: the subscriber is gone.
  mutating func stopDraining() { isDraining = false }

  /// The subscriber asked for more, or returned more demand from a group.
  ///
  /// - Returns: What to ask the upstream for: `count` elements per group with
  ///   `.byTimeOrCount`, nothing with `.byTime` (it asked for everything).
  mutating func demandAdded(_ more: Subscribers.Demand) -> Subscribers.Demand? {
    demand += more
    return maxCount.map { more * $0 }
  }

  /// The subscription was cancelled: every group and the pending completion go.
  ///
  /// - Returns: The timer, for the caller to cancel once unlocked.
  mutating func cancelled() -> (any Cancellable)? {
    let timer: (any Cancellable)? = if case .collecting(let timer) = state { timer } else { nil }
    state = .finished
    current = []
    closed = []
    closedStart = 0
    return timer
  }
}
