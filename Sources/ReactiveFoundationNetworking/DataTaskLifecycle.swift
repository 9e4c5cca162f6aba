/// Where one data task subscription is in its life, and what each event does to it.
///
/// Every event is a `switch` over the state; an event that cannot happen in a state
/// traps. Each returns what the subscription must do once the lock is released, so that
/// neither Foundation nor the subscriber is called with it held. Generic over what starts a
/// task (`Start`: the request) and the task, so that the tests drive it without a session.
enum DataTaskLifecycle<Downstream, Start, Task> {
  /// Subscribed; nothing asked for yet, so no task exists and no request was made.
  case awaitingDemand(Downstream, start: Start)
  /// The first demand arrived; the task is being created, outside the lock.
  case creatingTask(Downstream)
  /// The task runs; its completion handler will deliver the outcome.
  case running(Downstream, task: Task)
  /// The subscriber cancelled: nothing more reaches it, and it is let go. `task` is the
  /// task being cancelled, if one was made; it still reports, and the report is dropped.
  case cancelled(task: Task?)
  /// The outcome was delivered: nothing more reaches the subscriber, which is let go.
  case delivered

  /// What to do with a task's report.
  enum Report {
    /// Deliver it to this subscriber.
    case deliver(Downstream)
    /// Drop it: the subscription was cancelled while `task` ran (which the subscription
    /// is cancelling), or the outcome was delivered already (`task` is nil).
    case drop(cancelling: Task?)
  }

  /// The subscriber asked for values. The first time, returns what to create the task
  /// from; afterwards nil (one task per subscription, whatever the demand).
  mutating func demandArrived() -> Start? {
    switch self {
    case .awaitingDemand(let downstream, let start):
      self = .creatingTask(downstream)
      return start
    case .creatingTask, .running, .cancelled, .delivered:
      return nil
    }
  }

  /// The task for the first demand exists. Returns true to resume it; false when the
  /// subscription was cancelled meanwhile, and the task must be cancelled, not started.
  mutating func taskCreated(_ task: Task) -> Bool {
    switch self {
    case .creatingTask(let downstream):
      self = .running(downstream, task: task)
      return true
    case .cancelled(task: nil):
      self = .cancelled(task: task)
      return false
    case .awaitingDemand, .running, .cancelled(task: _?), .delivered:
      preconditionFailure("Internal inconsistency: a data task created in state \(self)")
    }
  }

  /// The task reported its outcome (a cancelled task reports too).
  mutating func taskCompleted() -> Report {
    switch self {
    case .running(let downstream, _):
      self = .delivered
      return .deliver(downstream)
    case .cancelled(let task):
      return .drop(cancelling: task)
    case .delivered:
      return .drop(cancelling: nil)
    case .awaitingDemand, .creatingTask:
      preconditionFailure("Internal inconsistency: a data task completed in state \(self)")
    }
  }

  /// The subscriber cancelled. Returns the running task to cancel, if there is one.
  mutating func cancelled() -> Task? {
    switch self {
    case .awaitingDemand, .creatingTask:
      self = .cancelled(task: nil)
      return nil
    case .running(_, let task):
      self = .cancelled(task: task)
      return task
    case .cancelled, .delivered:
      return nil
    }
  }
}
