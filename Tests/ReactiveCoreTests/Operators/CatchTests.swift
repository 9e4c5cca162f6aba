import ReactiveCore
import Testing

/// `catch`, `tryCatch` and `retry` as Combine shapes them.
@Suite struct CatchRetryCombineTests {
  @Test func catchCarriesOutstandingDemandToTheReplacement() {
    let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let replacementSubscription = RecordingSubscription()
    let replacement = ManualPublisher<Int, TestError>(subscription: replacementSubscription)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.catch { _ in replacement }.subscribe(tracking)
    upstream.send(1)
    upstream.send(completion: .failure(.oops))
    #expect(replacementSubscription.history == [.requested(.max(2))])
    #expect(tracking.events.first == .subscription("Catch"))
  }

  @Test func theReplacementSeesTheOperatorAsItsSubscriber() {
    let replacement = ManualPublisher<Int, Never>(subscription: nil)
    _ = Fail<Int, TestError>(error: .oops).tryCatch { _ in replacement }.sink(
      receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect((replacement.rawSubscriber as? CustomStringConvertible)?.description == "TryCatch")
  }

  @Test func catchTrapsOnAValueNobodyAskedFor() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      let tracking = TrackingSubscriber<Int, TestError>(initialDemand: nil)
      upstream.catch { _ in Empty<Int, TestError>() }.subscribe(tracking)
      upstream.send(1)
    }
  }

  @Test func catchTrapsOnASecondFailure() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      let tracking = TrackingSubscriber<Int, TestError>()
      upstream.catch { _ in ManualPublisher<Int, TestError>(subscription: nil) }
        .subscribe(tracking)
      upstream.send(completion: .failure(.oops))
      upstream.send(completion: .failure(.oops))
    }
  }

  @Test func retryResubscribesWithOneDownstreamSubscriptionAndNoRecursion() {
    let attempts = LockedBox(0)
    let tracking = TrackingSubscriber<Int, TestError>()
    Deferred { () -> Fail<Int, TestError> in
      attempts.withLock { $0 += 1 }
      return Fail(error: .oops)
    }.retry(10_000).subscribe(tracking)
    #expect(attempts.withLock { $0 } == 10_001)
    #expect(tracking.events == [.subscription("Retry"), .completion(.failure(.oops))])
  }

  @Test func retryCarriesDemandAcrossAttempts() {
    let first = RecordingSubscription()
    let second = RecordingSubscription()
    let subscriptions = LockedBox([first, second])
    let publisher = ManualPublisher<Int, TestError>(subscription: nil)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(3))
    publisher.retry(1).subscribe(tracking)
    publisher.send(subscription: subscriptions.withLock { $0.removeFirst() })
    publisher.send(1)
    publisher.send(completion: .failure(.oops))
    publisher.send(subscription: subscriptions.withLock { $0.removeFirst() })
    #expect(first.history == [.requested(.max(3))])
    #expect(second.history == [.requested(.max(2))])
  }
}
