import Foundation
import ReactiveCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One subscriber's data task: created on the first demand, cancelled with the
/// subscription, and delivering its outcome at most once.
///
/// Everything that changes is the ``DataTaskLifecycle`` behind `lifecycle`'s lock. The
/// lock is never held while calling into Foundation or the subscriber: each event takes
/// what it must act on out of the machine, then acts.
///
/// A cancelled task's report is dropped, but on Linux not before the task's `cancel()` has
/// done its work (`awaitCancellationFollowUp()`): FoundationNetworking traps if the report
/// overtakes it. On Linux with a concurrent delegate queue a resumed task is not cancelled
/// at all (`URLSession.cancelsResumedTasksSafely`).
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, Sendable,
  DataTaskCompletionHandling, CustomStringConvertible
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
  private let lifecycle: LockedBox<DataTaskLifecycle<Downstream, URLRequest, URLSessionDataTask>>
  /// The session that runs the task.
  private let session: URLSession
  /// Whether cancelling cancels a resumed task (always, except on Linux with a concurrent
  /// delegate queue), decided once so that the cancel and the report agree.
  private let cancelsResumedTasks: Bool

  init(downstream: Downstream, session: URLSession, request: URLRequest) {
    lifecycle = LockedBox(.awaitingDemand(downstream, start: request))
    self.session = session
    cancelsResumedTasks = session.cancelsResumedTasksSafely
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    // One value is all a data task ever publishes, so the amount beyond the first is moot.
    guard let request = lifecycle.withLock({ $0.demandArrived() }) else { return }
    // The handler keeps the subscription until the task ends (as Combine's does), so a
    // subscriber that keeps no reference still gets its outcome.
    let task = session.dataTask(with: request, reportingTo: self)
    if lifecycle.withLock({ $0.taskCreated(task) }) {
      task.resume()
    } else {
      // Cancelled while the task was being made: it never starts, and cancelling it lets
      // the session release its handler (and this subscription).
      task.cancel()
    }
  }

  func cancel() {
    guard let task = lifecycle.withLock({ $0.cancelled() }), cancelsResumedTasks else { return }
    task.cancel()
  }

  func taskCompleted(data: Data?, response: URLResponse?, error: (any Error)?) {
    let downstream: Downstream
    switch lifecycle.withLock({ $0.taskCompleted() }) {
    case .deliver(let subscriber):
      downstream = subscriber
    case .drop(let cancelling):
      // Returning lets the session mark the task completed and forget it; see there.
      if cancelsResumedTasks { cancelling?.awaitCancellationFollowUp() }
      return
    }
    switch (response, error) {
    case (let response?, nil):
      _ = downstream.receive((data: data ?? Data(), response: response))
      downstream.receive(completion: .finished)
    case (_, let error?):
      downstream.receive(completion: .failure(URLError(reporting: error)))
    case (nil, nil):
      downstream.receive(completion: .failure(URLError(.unknown)))
    }
  }

  var description: String { "DataTaskPublisher" }
}

/// What a data task's completion handler reports to. The handler captures this
/// existential rather than the generic subscription, whose `Downstream` metatype is not
/// `Sendable`, and the handler must be.
protocol DataTaskCompletionHandling: AnyObject, Sendable {
  /// Delivers the task's outcome, unless the subscription was cancelled first.
  func taskCompleted(data: Data?, response: URLResponse?, error: (any Error)?)
}

extension URLSession {
  /// A data task for `request` whose outcome goes to `handler`.
  func dataTask(
    with request: URLRequest, reportingTo handler: any DataTaskCompletionHandling
  ) -> URLSessionDataTask {
    dataTask(with: request) { handler.taskCompleted(data: $0, response: $1, error: $2) }
  }
}

extension URLError {
  /// The `URLError` a data task's completion handler reports as `error`. Foundation on
  /// Linux hands over an `NSError` in `NSURLErrorDomain`, which does not always cast, so
  /// its code and user info are carried over; any other error becomes `.unknown` with the
  /// original as its underlying error.
  init(reporting error: any Error) {
    if let urlError = error as? URLError {
      self = urlError
      return
    }
    let nsError = error as NSError
    if nsError.domain == NSURLErrorDomain {
      // Optional on Linux, not on Apple platforms: the annotation makes both compile.
      let code: Code? = Code(rawValue: nsError.code)
      self.init(code ?? .unknown, userInfo: nsError.userInfo)
    } else {
      self.init(.unknown, userInfo: [NSUnderlyingErrorKey: nsError])
    }
  }
}
