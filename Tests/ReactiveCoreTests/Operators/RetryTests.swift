import ReactiveCore
import Testing

@Suite struct RetryTests {
  @Test func retryResubscribesUntilItSucceeds() {
    var attempts = 0
    let flaky = Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      return attempts < 3
        ? Fail(error: TestError.oops).eraseToAnyPublisher()
        : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
    }
    let result = collectAll(flaky.retry(5))
    #expect(result.0 == [3])
    #expect(result.1 == [.finished])
    #expect(attempts == 3)
  }

  @Test func retryGivesUpAfterTheLimit() {
    var attempts = 0
    let failing = Deferred { () -> Fail<Int, TestError> in
      attempts += 1
      return Fail(error: .oops)
    }
    let result = collectAll(failing.retry(2))
    #expect(result.1 == [.failure(.oops)])
    #expect(attempts == 3)
  }

  // `catch`, `tryCatch` and `retry` as Combine shapes them.
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
