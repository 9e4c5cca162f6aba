/// Where one data task subscription is in its life, and what each event does to it.
///
/// Every event is a `switch` over the state; an event that cannot happen in a state
/// traps. Each returns what the subscription must do once the lock is released, so that
/// neither Foundation nor the subscriber is called with it held. Generic over what starts a
/// task (`Start`: a session and a request) and the task, so that the tests drive it
/// without a session.
enum DataTaskLifecycle<Downstream, Start, Task> {
  /// Subscribed; nothing asked for yet, so no task exists and no request was made.
  case awaitingDemand(Downstream, start: Start)
  /// The first demand arrived; the task is being created, outside the lock.
  case creatingTask(Downstream)
  /// The task runs; its completion handler will deliver the outcome.
  case running(Downstream, task: Task)
  /// Delivered or cancelled: nothing more reaches the subscriber, which is let go.
  case ended

  /// The subscriber asked for values. The first time, returns what to create the task
  /// from; afterwards nil (one task per subscription, whatever the demand).
  mutating func demandArrived() -> Start? {
    switch self {
    case .awaitingDemand(let downstream, let start):
      self = .creatingTask(downstream)
      return start
    case .creatingTask, .running, .ended:
      return nil
    }
  }

  /// The task for the first demand exists. Returns true to resume it; false when the
  /// subscription was cancelled meanwhile, and the task must not start.
  mutating func taskCreated(_ task: Task) -> Bool {
    switch self {
    case .creatingTask(let downstream):
      self = .running(downstream, task: task)
      return true
    case .ended:
      return false
    case .awaitingDemand, .running:
      preconditionFailure("Internal inconsistency: a data task created in state \(self)")
    }
  }

  /// The task reported its outcome. Returns the subscriber to deliver it to, or nil when
  /// the subscription was cancelled first (the cancelled task still reports).
  mutating func taskCompleted() -> Downstream? {
    switch self {
    case .running(let downstream, _):
      self = .ended
      return downstream
    case .ended:
      return nil
    case .awaitingDemand, .creatingTask:
      preconditionFailure("Internal inconsistency: a data task completed in state \(self)")
    }
  }

  /// The subscriber cancelled. Returns the running task to cancel, if there is one.
  mutating func cancelled() -> Task? {
    defer { self = .ended }
    if case .running(_, let task) = self { return task }
    return nil
  }
}
