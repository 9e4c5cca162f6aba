/// The state of one subscriber's wait for a future's result: the result goes out once
/// both it and the subscriber's demand are there (a failure does not wait for demand).
///
/// A value type with no lock of its own: ``FutureSubscription`` keeps it in
/// its guarded state, feeds it events under the lock, and delivers once it has unlocked.
struct FutureSubscriptionStateMachine<Downstream: Subscriber> {
  /// The kind of value the future produces.
  typealias Output = Downstream.Input
  /// The kind of error the future may fail with.
  typealias Failure = Downstream.Failure

  /// Whether the subscriber still waits.
  private enum Delivery {
    /// It waits for the result, its demand, or both.
    case waiting(Downstream)
    /// It has been handed the result, or it cancelled: it is let go.
    case done
  }

  /// Whether the subscriber still waits; it is let go as soon as it has the result.
  private var delivery: Delivery
  /// The future, until the result is delivered for a waiting subscriber or the
  /// subscription is cancelled (its mirror shows it, as Combine's does).
  private(set) var parent: Future<Output, Failure>?
  /// Whether the subscriber has asked for the value; kept after delivery, for the
  /// mirror.
  private(set) var hasDemand = false
  /// The future's result, once it has arrived.
  private var result: Result<Output, Failure>?

  /// `downstream`'s wait for the result of `parent`.
  init(parent: Future<Output, Failure>, downstream: Downstream) {
    self.parent = parent
    delivery = .waiting(downstream)
  }

  /// The subscriber while it waits, for the mirror.
  var downstream: Downstream? {
    if case .waiting(let downstream) = delivery { return downstream }
    return nil
  }

  /// What to do once the result or the demand has arrived.
  enum DeliveryAction {
    /// The other is still missing, or the subscriber is gone: nothing to do.
    case wait
    /// Hand this result to this subscriber, which is let go.
    case deliver(Result<Output, Failure>, to: Downstream)
  }

  /// The future's result arrived.
  mutating func resultArrived(_ result: Result<Output, Failure>) -> DeliveryAction {
    self.result = result
    return takeIfReady()
  }

  /// The subscriber asked for the value.
  mutating func demandArrived() -> DeliveryAction {
    hasDemand = true
    return takeIfReady()
  }

  /// The result has gone to a subscriber that was waiting for it, so the future is let
  /// go, as Combine's does (a result already there when demand comes keeps it, until
  /// the subscription goes).
  ///
  /// - Returns: The future, to stop waiting on once unlocked.
  mutating func releaseParent() -> Future<Output, Failure>? { parent.take() }

  /// What to do when the subscriber cancels.
  enum CancelAction {
    /// Release the subscriber (once unlocked: its `deinit` may run any code), and tell
    /// the future, if it is still held, that this subscription no longer waits.
    case cancel(releasing: Downstream?, leaving: Future<Output, Failure>?)
  }

  /// The subscriber cancelled: the subscriber and the future are let go.
  mutating func cancelled() -> CancelAction {
    let action = CancelAction.cancel(releasing: downstream, leaving: parent)
    delivery = .done
    parent = nil
    return action
  }

  /// Takes the subscriber once the result is there and either it is a failure or the
  /// subscriber has demand.
  private mutating func takeIfReady() -> DeliveryAction {
    switch delivery {
    case .waiting(let downstream):
      guard let result else { return .wait }
      switch result {
      case .success where !hasDemand:
        // A value waits for demand; a failure does not.
        return .wait
      case .success, .failure:
        delivery = .done
        return .deliver(result, to: downstream)
      }
    case .done:
      // Delivered, or cancelled: a later request or result does nothing.
      return .wait
    }
  }
}
