import ReactiveCore
import Testing

@Suite struct AsyncThrowingPublisherTests {
  @Test func throwingValuesThrowTheFailure() async {
    let publisher = Record<Int, TestError>(output: [1], completion: .failure(.oops))
    var received: [Int] = []
    await #expect(throws: TestError.oops) {
      for try await value in publisher.values { received.append(value) }
    }
    #expect(received == [1])
  }

  // `publisher.values` as Combine shapes it: the iterator subscribes when it is made,
  // several `next()` calls may wait at once, and every waiting call resumes exactly once.
  @Test func aFailureIsThrownOnceThenTheSequenceEnds() async throws {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    var iterator = publisher.values.makeAsyncIterator()
    publisher.send(completion: .failure(.oops))
    await #expect(throws: TestError.oops) { _ = try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  // The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
  // here: as in Combine, a completion or a cancel releases everything.
  @Test func breakingOutOfAThrowingForAwaitLoopCancelsAndReleasesTheSubscription() async throws {
    weak var weakToken: Token?
    let cancelled = LockedBox(false)
    do {
      let token = Token()
      weakToken = token
      let publisher = (1...3).publisher.setFailureType(to: TestError.self)
        .handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        .map { value -> Int in
          _ = token
          return value
        }
      for try await value in publisher.values where value == 1 { break }
    }
    #expect(cancelled.withLock { $0 })
    #expect(weakToken == nil)
  }
}
