import ReactiveCore
import Testing

@Suite struct AsyncBridgeTests {
  @Test func valuesIteratesEveryElement() async {
    var received: [Int] = []
    for await value in [1, 2, 3].publisher.values { received.append(value) }
    #expect(received == [1, 2, 3])
  }

  @Test func valuesRequestsOneAtATime() async {
    let requests = LockedBox<[Subscribers.Demand]>([])
    let publisher = (1...3).publisher.handleEvents(receiveRequest: { demand in
      requests.withLock { $0.append(demand) }
    })
    var iterator = publisher.values.makeAsyncIterator()
    _ = await iterator.next()
    _ = await iterator.next()
    #expect(requests.withLock { $0 } == [.max(1), .max(1)])
  }

  @Test func throwingValuesThrowTheFailure() async {
    let publisher = Record<Int, TestError>(output: [1], completion: .failure(.oops))
    var received: [Int] = []
    await #expect(throws: TestError.oops) {
      for try await value in publisher.values { received.append(value) }
    }
    #expect(received == [1])
  }

  @Test func cancellingTheTaskCancelsTheSubscription() async {
    let subject = PassthroughSubject<Int, Never>()
    let cancelled = LockedBox(false)
    let subscribed = LockedBox(false)
    let stream = subject.handleEvents(
      receiveSubscription: { _ in subscribed.withLock { $0 = true } },
      receiveCancel: { cancelled.withLock { $0 = true } }
    ).values
    let task = Task {
      var count = 0
      for await _ in stream { count += 1 }
      return count
    }
    while !subscribed.withLock({ $0 }) { await Task.yield() }
    task.cancel()
    _ = await task.value
    #expect(cancelled.withLock { $0 })
  }

  @Test func futureValue() async throws {
    let future = Future<Int, Never> { $0(.success(42)) }
    #expect(await future.value == 42)
    let failing = Future<Int, TestError> { $0(.failure(.oops)) }
    await #expect(throws: TestError.oops) { try await failing.value }
  }

  @Test func asyncSequenceBecomesAPublisher() async {
    let stream = AsyncStream<Int> { continuation in
      for value in 1...3 { continuation.yield(value) }
      continuation.finish()
    }
    var received: [Int] = []
    for await value in stream.publisher.replaceError(with: -1).values { received.append(value) }
    #expect(received == [1, 2, 3])
  }
}
