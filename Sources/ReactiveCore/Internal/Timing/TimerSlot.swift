/// The repeating timer of a `debounce` or `timeout` subscription, and the generation that
/// tells its firing from a replaced one's.
///
/// A timer is scheduled without the lock, so a newer one, the end of the subscription or
/// the timer's own firing may come while it is in the scheduler's hands; the generation
/// lets the owner store it only if it is still the newest, and lets a firing timer know
/// whether it is stale. Part of its owner's state machine: guarded by the owner's lock.
struct TimerSlot {
  /// The generation of the newest timer asked for; zero before the first.
  private(set) var generation = 0
  /// The newest timer stored; a previous generation's while a newer one is scheduled.
  private var timer: (any Cancellable)?

  /// What to do with a timer the scheduler has just returned.
  enum StoreAction {
    /// A newer timer was asked for, or the slot was emptied meanwhile: cancel this one.
    case cancelNew(any Cancellable)
    /// The timer is stored; cancel the one it replaced, if any.
    case cancelReplaced((any Cancellable)?)
  }

  /// Starts a new generation, for a timer about to be scheduled.
  ///
  /// - Returns: The generation the new timer carries.
  mutating func nextGeneration() -> Int {
    generation += 1
    return generation
  }

  /// Whether `generation` is the newest timer's.
  func isCurrent(_ generation: Int) -> Bool { self.generation == generation }

  /// Stores `newTimer`, of `generation`, if it is still wanted.
  ///
  /// - Parameters:
  ///   - newTimer: The timer the scheduler returned.
  ///   - generation: The generation it was scheduled for.
  ///   - isWanted: Whether its owner still waits for it (not fired, not ended).
  /// - Returns: Which timer to cancel once the lock is released.
  mutating func store(
    _ newTimer: any Cancellable, of generation: Int, isWanted: Bool
  ) -> StoreAction {
    guard isWanted, isCurrent(generation) else { return .cancelNew(newTimer) }
    defer { timer = newTimer }
    return .cancelReplaced(timer)
  }

  /// Empties the slot, keeping the generation, so that the timer it held stops.
  ///
  /// - Returns: The timer to cancel once the lock is released.
  mutating func take() -> (any Cancellable)? {
    defer { timer = nil }
    return timer
  }
}

extension TimerSlot.StoreAction {
  /// Cancels the timer this action names; call it without the lock.
  func run() {
    switch self {
    case .cancelNew(let timer): timer.cancel()
    case .cancelReplaced(let timer): timer?.cancel()
    }
  }
}
