/// The state of a `timeout` subscription's clock: whether the subscriber has asked yet,
/// the running timer, and the thread setting a timer up.
///
/// A value type with no lock of its own: ``TimeoutSubscription`` keeps it under its
/// lock, feeds it events, and carries out the returned action once it has unlocked (a
/// timer is cancelled, the upstream cancelled, the subscriber failed). It ends together
/// with the subscription's status: on a time-out, a delivered completion or a cancel.
struct TimeoutStateMachine {
  /// Where the clock stands.
  private enum State {
    /// The subscriber has not asked for anything yet: its first request starts the clock
    /// again, as Combine's does.
    case awaitingRequest
    /// The subscriber has asked: only values start the clock again.
    case requested
    /// Timed out, completed or cancelled: no timer is kept any more.
    case ended
  }

  /// What to do when the subscriber asks for more.
  enum RequestAction {
    /// The first request: start the clock again, then pass the request upstream.
    case startClockAndPass
    /// Pass the request upstream.
    case pass
  }

  /// What to do when a timer fires.
  enum FireAction {
    /// The timer is stale, or the subscription already ended: do nothing.
    case ignore
    /// Time is up: cancel the fired timer (it repeats) and the upstream, and complete.
    case timeOut(stopping: (any Cancellable)?)
  }

  /// Subscribed, and nothing asked for yet.
  private var state = State.awaitingRequest
  /// The running timer and its generation; a firing timer of another one is stale.
  private var timer = TimerSlot()
  /// The thread setting a timer up, while it is in the scheduler's hands (zero
  /// otherwise).
  private var clockStarter: UInt = 0

  /// A timer is about to be scheduled on `thread`.
  ///
  /// - Returns: The generation the new timer carries.
  mutating func clockStarting(on thread: UInt) -> Int {
    clockStarter = thread
    return timer.nextGeneration()
  }

  /// The scheduler returned the timer of `generation`; it is kept only if no newer one
  /// was asked for and the subscription has not ended meanwhile.
  mutating func clockScheduled(_ newTimer: any Cancellable, generation: Int)
    -> TimerSlot.StoreAction
  {
    clockStarter = 0
    // A clock set up while the subscription ended (values and the subscription start it
    // without holding the lock throughout) is not wanted any more.
    switch state {
    case .awaitingRequest, .requested:
      return timer.store(newTimer, of: generation, isWanted: true)
    case .ended:
      return timer.store(newTimer, of: generation, isWanted: false)
    }
  }

  /// Whether `thread` is setting a timer up: a timer firing then was run at once by its
  /// scheduler, which Combine cannot handle (it traps).
  func isStartingClock(on thread: UInt) -> Bool { clockStarter == thread }

  /// The timer of `generation` fired. The subscription feeds this only while subscribed,
  /// and the machine ends with that status, so it is never ended here.
  mutating func timerFired(generation: Int) -> FireAction {
    switch state {
    case .awaitingRequest, .requested:
      // The clock runs from the subscription on, so a current timer times out whether or
      // not the subscriber has asked yet.
      guard timer.isCurrent(generation) else { return .ignore }
      state = .ended
      return .timeOut(stopping: timer.take())
    case .ended:
      preconditionFailure("Internal inconsistency: a timeout's timer fired after it ended")
    }
  }

  /// The subscriber asked for more (fed only while subscribed).
  mutating func requested() -> RequestAction {
    switch state {
    case .awaitingRequest:
      state = .requested
      return .startClockAndPass
    case .requested:
      return .pass
    case .ended:
      preconditionFailure("Internal inconsistency: a request reached a timeout that ended")
    }
  }

  /// The upstream completed: the clock stops while the completion waits on the
  /// scheduler (a first request meanwhile starts it again). Fed only while subscribed.
  ///
  /// - Returns: The timer to cancel once unlocked.
  mutating func upstreamCompleted() -> (any Cancellable)? {
    switch state {
    case .awaitingRequest, .requested:
      return timer.take()
    case .ended:
      preconditionFailure("Internal inconsistency: a timeout's upstream completed after it ended")
    }
  }

  /// The completion was delivered or the subscription cancelled: the clock stops for
  /// good. Fed once, as the status leaves `subscribed`.
  ///
  /// - Returns: The timer to cancel once unlocked.
  mutating func ended() -> (any Cancellable)? {
    switch state {
    case .awaitingRequest, .requested:
      state = .ended
      return timer.take()
    case .ended:
      preconditionFailure("Internal inconsistency: a timeout ended twice")
    }
  }
}
