/// The state of a `collect(byTime:)` subscription: the group being gathered, the closed
/// groups waiting for demand, the timer, the completion waiting behind the groups, and
/// which thread drains.
///
/// A value type with no lock of its own: ``CollectByTimeSubscription`` keeps it under
/// its lock, feeds it events, and carries out the returned action once it has unlocked
/// (a timer is cancelled, a drain scheduled or run, the upstream asked). The groups are
/// stored fields, not enum payloads, so that appending never copies them.
///
/// Values, timer firings and the completion arrive only while the subscription is
/// subscribed; the drain, requests and returned demand only while it holds its subscriber,
/// which it lets go as the machine finishes. Each event decides by the state, and one
/// that cannot happen in a state stops the program, saying so.
///
/// The demand it asks the upstream for is current Combine's: with `.byTime`, one element
/// per request of the subscriber and one more per element (so the upstream is never
/// held back); with `.byTimeOrCount`, `count` elements per unit of demand requested, and
/// again for the demand returned by a group that the count closed (not for one that the
/// timer closed, whose returned demand only counts downstream, as in Combine).
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

  /// What to do after an event that may have closed a group.
  enum GroupAction: Equatable {
    /// A group closed on the scheduler (the timer fired): drain now.
    case drain
    /// A group closed outside the scheduler (the count was reached, or the subscriber
    /// asked for more while groups wait): schedule a drain on the scheduler.
    case scheduleDrain
    /// Nothing to deliver yet.
    case wait
  }

  /// What the draining thread delivers next.
  enum Step {
    /// A closed group, for one unit of demand; `byCount` tells whether the count closed
    /// it (the demand it returns is then asked of the upstream).
    case group([Value], byCount: Bool)
    /// The completion: no group is left, or the upstream failed.
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
  /// For each closed group, whether the count closed it.
  private var closedByCount: [Bool] = []
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

  /// Whether something waits that a drain could deliver: a closed group, or the
  /// completion.
  private var hasWaitingWork: Bool {
    if hasClosedGroup { return true }
    if case .completing = state { return true }
    return false
  }

  /// The scheduler returned the repeating timer.
  ///
  /// - Returns: The timer, if it is no longer wanted (the upstream completed or the
  ///   subscription was cancelled meanwhile), for the caller to cancel once unlocked.
  mutating func timerScheduled(_ timer: any Cancellable) -> (any Cancellable)? {
    // Scheduled without the lock: the completion or a cancel may have come meanwhile.
    switch state {
    case .collecting:
      state = .collecting(timer: timer)
      return nil
    case .completing, .finished:
      return timer
    }
  }

  /// A value arrived: it joins the current group, which closes at `maxCount`; a full
  /// group is delivered from the scheduler, as Combine does.
  mutating func valueArrived(_ value: Value) -> GroupAction {
    switch state {
    case .collecting: break
    case .completing, .finished:
      preconditionFailure("Internal inconsistency: a value reached collect(byTime:) after its end")
    }
    current.append(value)
    guard let maxCount, current.count >= maxCount else { return .wait }
    closeGroup(byCount: true)
    return .scheduleDrain
  }

  /// The timer fired. With `.byTimeOrCount` the current group closes unless it is empty.
  /// With `.byTime` it closes only if the subscriber has demand: otherwise it keeps
  /// gathering until a tick finds demand, as Combine's does.
  mutating func timerFired() -> GroupAction {
    switch state {
    case .collecting: break
    case .completing, .finished:
      preconditionFailure("Internal inconsistency: collect(byTime:)'s timer fired after its end")
    }
    guard !current.isEmpty else { return .wait }
    if maxCount == nil, demand == .none { return .wait }
    closeGroup(byCount: false)
    return .drain
  }

  /// Moves the current group to the closed ones and starts a new one.
  private mutating func closeGroup(byCount: Bool) {
    closed.append(current)
    closedByCount.append(byCount)
    current = []
  }

  /// The upstream completed: a finish closes the current group, a failure discards it;
  /// the completion waits behind the closed groups (a failure only behind those the
  /// subscriber has demand for) and is delivered from the scheduler.
  ///
  /// - Returns: The timer, for the caller to cancel once unlocked; then schedule a
  ///   drain.
  mutating func completionArrived(_ completion: Subscribers.Completion<Failure>)
    -> (any Cancellable)?
  {
    let timer: (any Cancellable)?
    switch state {
    case .collecting(let running): timer = running
    case .completing, .finished:
      preconditionFailure("Internal inconsistency: collect(byTime:) completed after its end")
    }
    if case .finished = completion, !current.isEmpty {
      closeGroup(byCount: false)
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
  /// completion once no group is left (a failure goes without waiting for demand, and
  /// the groups it finds waiting are dropped). A step other than a group ends the drain.
  mutating func nextStep() -> Step {
    if case .finished = state {
      preconditionFailure("Internal inconsistency: collect(byTime:) drained after its end")
    }
    if hasClosedGroup, demand > 0 {
      demand -= 1
      let group = closed[closedStart]
      let byCount = closedByCount[closedStart]
      closedStart += 1
      if closedStart == closed.count { dropClosedGroups() }
      return .group(group, byCount: byCount)
    }
    isDraining = false
    switch state {
    case .collecting:
      return .idle
    case .completing(let completion):
      if case .failure = completion { dropClosedGroups() }
      guard !hasClosedGroup else { return .idle }
      state = .finished
      return .completion(completion)
    case .finished:
      preconditionFailure("Internal inconsistency: collect(byTime:) drained after its end")
    }
  }

  /// Empties the closed groups, keeping their capacity.
  private mutating func dropClosedGroups() {
    closed.removeAll(keepingCapacity: true)
    closedByCount.removeAll(keepingCapacity: true)
    closedStart = 0
  }

  /// Ends the drain without a step: the subscriber is gone.
  mutating func stopDraining() { isDraining = false }

  /// The subscriber asked for more.
  ///
  /// - Returns: What to ask the upstream for (`.max(1)` with `.byTime`, `count` per unit
  ///   with `.byTimeOrCount`; nothing for no demand), and whether to schedule a drain for
  ///   groups or a completion that waited for demand.
  mutating func requested(_ more: Subscribers.Demand) -> (
    upstream: Subscribers.Demand?, action: GroupAction
  ) {
    guard more > .none else { return (nil, .wait) }
    if case .finished = state {
      preconditionFailure(
        "Internal inconsistency: a request reached collect(byTime:) after its end")
    }
    demand += more
    let upstream = maxCount.map { more * $0 } ?? .max(1)
    return (upstream, hasWaitingWork ? .scheduleDrain : .wait)
  }

  /// A delivered group returned more demand.
  ///
  /// - Returns: What to ask the upstream for: `count` per unit for a group that the
  ///   count closed, nothing otherwise.
  mutating func groupReturned(_ more: Subscribers.Demand, byCount: Bool) -> Subscribers.Demand? {
    guard more > .none else { return nil }
    if case .finished = state {
      preconditionFailure(
        "Internal inconsistency: a group returned demand after collect(byTime:) ended")
    }
    demand += more
    guard byCount, let maxCount else { return nil }
    return more * maxCount
  }

  /// The subscription was cancelled: every group and the pending completion go.
  ///
  /// - Returns: The timer, for the caller to cancel once unlocked.
  mutating func cancelled() -> (any Cancellable)? {
    // A cancel may come at any time, again after the end too.
    let timer: (any Cancellable)?
    switch state {
    case .collecting(let running): timer = running
    case .completing, .finished: timer = nil
    }
    state = .finished
    current = []
    dropClosedGroups()
    return timer
  }
}
