import Foundation
import ReactiveCore
import ReactiveFoundationNetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Many cancels, timed against the response from every side at once. On Linux, a data
/// task's `cancel()` that met its completion used to trap the whole process in
/// FoundationNetworking ("Trying to access a behaviour for a task that in not in the
/// registry"); this test ran into that within its first rounds. It asserts no timing:
/// only that every subscriber gets all of its outcome or none of it, that nothing is lost,
/// and (by reaching its end) that the process survived.
@Suite(.timeLimit(.minutes(5))) struct DataTaskCancelStressTests {
  /// When a subscription is cancelled, if at all.
  enum Cancel: CaseIterable {
    /// On the subscribing thread, as soon as `subscribe` returns.
    case rightAfterSubscribing
    /// On another thread, racing the request itself.
    case fromAnotherThread
    /// On the server's thread, as the request arrives, before the response is sent.
    case asTheRequestArrives
    /// On the server's thread, once the response is sent: while the client reads it and
    /// the session completes the task.
    case asTheResponseArrives
    /// On the session's delegate queue, where completions are delivered.
    case onTheDelegateQueue
    /// Never: the subscriber must get the whole outcome.
    case never
  }

  /// The session's delegate queue, where completions run.
  enum DelegateQueue: CaseIterable {
    /// The session's own, which runs one operation at a time.
    case serial
    /// One that runs operations side by side: on Linux, a cancelled subscription leaves its
    /// resumed task running there, and drops its outcome.
    case concurrent

    /// The queue to give a new session (nil: its own).
    func make() -> OperationQueue? {
      switch self {
      case .serial: nil
      case .concurrent: OperationQueue()
      }
    }
  }

  static let rounds = 30
  static let subscriptionsPerRound = 120

  @Test(arguments: DelegateQueue.allCases)
  func cancelsRacingResponsesLeaveEveryOutcomeWholeOrAbsent(delegateQueue: DelegateQueue)
    async throws
  {
    // The recorder each path cancels on the server's side, before or after its response.
    let cancelOnArrival = LockedBox<[String: DataTaskRecorder]>([:])
    let cancelOnReply = LockedBox<[String: DataTaskRecorder]>([:])
    let server = try LoopbackHTTPServer(
      reply: { path in
        cancelOnArrival.withLock { $0[path] }?.cancel()
        return .respond(status: 200, body: Array(path.utf8))
      },
      replied: { path in cancelOnReply.withLock { $0[path] }?.cancel() })
    defer { server.stop() }

    for round in 0..<Self.rounds {
      let watcher = InvalidationWatcher()
      let session = URLSession(
        configuration: .ephemeral, delegate: watcher, delegateQueue: delegateQueue.make())
      let plan = (0..<Self.subscriptionsPerRound).map { index in
        (
          path: "/\(round)/\(index)", recorder: DataTaskRecorder(),
          cancel: Cancel.allCases[index % Cancel.allCases.count]
        )
      }
      for (path, recorder, cancel) in plan {
        switch cancel {
        case .asTheRequestArrives: cancelOnArrival.withLock { $0[path] = recorder }
        case .asTheResponseArrives: cancelOnReply.withLock { $0[path] = recorder }
        default: break
        }
      }
      DispatchQueue.concurrentPerform(iterations: plan.count) { index in
        let (path, recorder, cancel) = plan[index]
        session.dataTaskPublisher(for: server.url(path)).subscribe(recorder)
        switch cancel {
        case .rightAfterSubscribing: recorder.cancel()
        case .fromAnotherThread: DispatchQueue.global().async { recorder.cancel() }
        case .onTheDelegateQueue: session.delegateQueue.addOperation { recorder.cancel() }
        case .asTheRequestArrives, .asTheResponseArrives, .never: break
        }
      }
      for (_, recorder, cancel) in plan where cancel == .never {
        #expect(await recorder.waitForCompletion())
      }
      // Invalidation comes once every task, cancelled or not, has ended and left the
      // session: by then each cancel has run its course.
      session.finishTasksAndInvalidate()
      #expect(await watcher.waitForInvalidation())

      for (path, recorder, cancel) in plan {
        let events = recorder.events
        if cancel == .never {
          #expect(events.count == 2, "\(path)")
          #expect(events.first?.data == Data(path.utf8), "\(path)")
        } else {
          #expect(events.isEmpty || events.count == 2, "\(path) (\(cancel))")
          if let value = events.first { #expect(value.data == Data(path.utf8), "\(path)") }
        }
        if events.count == 2 { #expect(events.last?.isFinished == true, "\(path)") }
      }
    }
  }
}
