import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionDataTask {
  /// Called from the completion handler of a task whose subscription cancelled it, on the
  /// session's (serial) delegate queue: returns once the task's `cancel()` has done its
  /// work on the session's work queue, so that the session may forget the task. Returns at
  /// once on Darwin, and in every case but a race.
  ///
  /// swift-corelibs-foundation (Linux) traps with "Trying to access a behaviour for a task
  /// that in not in the registry" (`TaskRegistry.swift`) when a task's `cancel()` lands
  /// after `resume()` but before the session's `URLCache` lookup, which every data task
  /// makes on a background queue before it starts, has answered. Such a `cancel()` queues
  /// its follow-up (stop loading, then report `.cancelled`) behind `resume()`'s start of
  /// the transfer, and the lookup's thread hands out the two one after the other. If that
  /// thread is held up between them, the transfer runs to its end, the completion handler
  /// returns, the session marks the task completed and removes it from its registry, and
  /// only then does the follow-up run and look the task up there: the trap, which takes the
  /// whole process down. Nothing outside the session can see the lookup's state, so
  /// `cancel()` cannot be held back until it is safe; but the session forgets the task only
  /// after the completion handler returns, so the handler waits for the follow-up instead.
  /// The follow-up's first step sets the task's `error` to `.cancelled` (even when the
  /// task had completed and there is nothing left to stop), and this reads `error` until
  /// it does, for 5 seconds at most. A cancel from elsewhere (`invalidateAndCancel()`) has
  /// a follow-up that sets it too.
  ///
  /// The subscription calls this only for a task it cancelled before the handler was
  /// called, whose `cancel()` call has returned or is under way, so the follow-up is queued
  /// or on its way, and it runs on the session's work queue, which does not wait for the
  /// delegate queue this blocks.
  func awaitCancellationFollowUp() {
    #if canImport(FoundationNetworking)
      // `error` is written on the session's work queue, without a lock; it holds one
      // reference, set once by the follow-up (the same value again when it stops loading).
      // Bounded: should a toolchain ever stop setting `error` there, the session's
      // delegate queue must not stop for good; past 5 seconds (the follow-up takes
      // microseconds, or a few milliseconds on a loaded machine) the handler returns.
      var waited = 0
      while error.map({ URLError(reporting: $0).code }) != .cancelled, waited < 100_000 {
        usleep(50)
        waited += 1
      }
    #endif
  }
}

extension URLSession {
  /// Whether a resumed data task of this session can be cancelled without risking a trap:
  /// always on Darwin; on Linux, when the delegate queue runs one operation at a time, as
  /// every session's does unless it was given another queue (and as swift-corelibs-foundation
  /// asks of a delegate queue).
  ///
  /// On a concurrent delegate queue swift-corelibs-foundation runs a task's completion
  /// reports side by side: when a cancel meets the response, the task has two (the
  /// response's and the cancel's), both pass the session's check that the task has not
  /// completed, and the second to remove the task from the session traps ("Trying to
  /// remove task, but it's not in the registry"), or a report looks up a task already
  /// removed (the trap ``URLSessionDataTask/awaitCancellationFollowUp()`` describes). No
  /// caller can order them, so on such a session a cancelled subscription leaves its
  /// resumed task to run to its end and drops the outcome. A task not yet resumed is
  /// cancelled on every session: it has no transfer, so it reports once.
  var cancelsResumedTasksSafely: Bool {
    #if canImport(FoundationNetworking)
      delegateQueue.maxConcurrentOperationCount == 1
    #else
      true
    #endif
  }
}
