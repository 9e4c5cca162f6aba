import Foundation
import ReactiveCore
import Testing

@Suite struct OperationQueueSchedulerTests {
  @Test func operationQueueRunsScheduledActions() async {
    let queue = OperationQueue()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.schedule { continuation.resume() }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.schedule(after: queue.now.advanced(by: .milliseconds(1))) {
        continuation.resume()
      }
    }
  }
}
