import Foundation
import ReactiveCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Waits until `condition` holds, checking every 2 ms; false if it did not within
/// `timeout` seconds (a guard against a hang, never a measurement).
///
/// It sleeps with `Task.sleep`, never by blocking its thread: the tests run on Swift
/// Testing's cooperative pool, as wide as the machine has cores, and a test that blocked a
/// thread while waiting for the network would hold every other test in the process (of
/// every module) back until it was done.
func eventually(timeout: Double = 60, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(timeout)
  while ContinuousClock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return condition()
}

extension OperationQueue {
  /// Waits until every operation queued so far has run, without blocking a thread.
  func drain() async {
    await withCheckedContinuation { done in addBarrierBlock { done.resume() } }
  }
}

/// A session delegate that notices the session's invalidation. After
/// `finishTasksAndInvalidate()`, that is the moment every task of the session has ended
/// and left the session.
final class InvalidationWatcher: NSObject, URLSessionDelegate, Sendable {
  // ReactiveCore's lock, which the thread sanitizer sees (`LoopbackHTTPServer.LogBox`).
  private let invalidated = LockedBox(false)

  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
    invalidated.withLock { $0 = true }
  }

  /// Waits until the session is invalid; false if it was not within `timeout` seconds.
  func waitForInvalidation(timeout: Double = 60) async -> Bool {
    await eventually(timeout: timeout) { self.invalidated.withLock { $0 } }
  }
}
