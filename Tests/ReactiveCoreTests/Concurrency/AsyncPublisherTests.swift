import ReactiveCore
import Testing

/// One async iterator shared by several tasks, as Combine's iterator may be; counts the
/// `next()` calls that have started waiting.
private final class SharedIterator: @unchecked Sendable {
  private var iterator: AsyncPublisher<ManualPublisher<Int, Never>>.Iterator
  private let started = LockedBox(0)

  init(_ iterator: AsyncPublisher<ManualPublisher<Int, Never>>.Iterator) {
    self.iterator = iterator
  }

  func next() async -> Int? {
    started.withLock { $0 += 1 }
    var copy = iterator  // the iterator is a handle to one shared subscriber
    return await copy.next()
  }

  /// Returns once `count` calls have started and had time to register their demand.
  func waitUntilWaiting(_ count: Int) async {
    while started.withLock({ $0 }) < count { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(20))
  }
}

@Suite struct AsyncPublisherTests {
  /// Runs `count` concurrent `next()` calls on one shared iterator; returns their results.
  private static func concurrentNexts(
    _ publisher: ManualPublisher<Int, Never>, count: Int,
    afterWaiting: @escaping @Sendable () async -> Void
  ) async -> [Int?] {
    let iterator = SharedIterator(publisher.values.makeAsyncIterator())
    return await withTaskGroup(of: Int?.self) { group in
      for _ in 0..<count { group.addTask { await iterator.next() } }
      await iterator.waitUntilWaiting(count)
      await afterWaiting()
      var results: [Int?] = []
      for await result in group { results.append(result) }
      return results
    }
  }

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

  // `publisher.values` as Combine shapes it: the iterator subscribes when it is made,
  // several `next()` calls may wait at once, and every waiting call resumes exactly once.
  @Test func theIteratorSubscribesWhenItIsMade() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let iterator = publisher.values.makeAsyncIterator()
    #expect(publisher.hasSubscriber)
    withExtendedLifetime(iterator) {}
  }

  @Test func demandAskedBeforeTheSubscriptionArrivesIsRequestedTogether() async {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let subscription = RecordingSubscription()
    let results = await Self.concurrentNexts(publisher, count: 3) {
      publisher.send(subscription: subscription)
      for value in 1...3 { #expect(publisher.send(value) == .none) }
    }
    #expect(results.compactMap { $0 }.sorted() == [1, 2, 3])
    // The iterator is gone by now, and dropping it cancels the subscription, as in Combine.
    #expect(subscription.history.filter { $0 != .cancelled } == [.requested(.max(3))])
  }

  @Test func completionEndsEveryWaitingNext() async {
    let subscription = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: subscription)
    let results = await Self.concurrentNexts(publisher, count: 3) {
      publisher.send(completion: .finished)
    }
    #expect(results == [nil, nil, nil])
    #expect(subscription.history == Array(repeating: .requested(.max(1)), count: 3))
  }

  @Test func cancellingOneWaitingTaskEndsAllAndCancelsOnce() async {
    let subscription = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: subscription)
    let iterator = SharedIterator(publisher.values.makeAsyncIterator())
    let cancelled = Task { await iterator.next() }
    let others = Task {
      await withTaskGroup(of: Int?.self) { group in
        group.addTask { await iterator.next() }
        group.addTask { await iterator.next() }
        var results: [Int?] = []
        for await result in group { results.append(result) }
        return results
      }
    }
    await iterator.waitUntilWaiting(3)
    cancelled.cancel()
    #expect(await cancelled.value == nil)
    #expect(await others.value == [nil, nil])
    #expect(subscription.history.filter { $0 == .cancelled }.count == 1)
  }

  @Test func cancelBeforeTheSubscriptionCancelsTheLateSubscription() async {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let iterator = SharedIterator(publisher.values.makeAsyncIterator())
    let task = Task { await iterator.next() }
    await iterator.waitUntilWaiting(1)
    task.cancel()
    #expect(await task.value == nil)
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.cancelled])
  }

  @Test func aSecondSubscriptionIsCancelled() {
    let first = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: first)
    let iterator = publisher.values.makeAsyncIterator()
    let second = RecordingSubscription()
    publisher.send(subscription: second)
    #expect(second.history == [.cancelled])
    #expect(first.history == [])
    withExtendedLifetime(iterator) {}
  }

  // The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
  // here: as in Combine, a completion or a cancel releases everything.
  @Test func droppingAnAsyncIteratorCancelsAndReleasesTheSubscription() async {
    weak var weakToken: Token?
    let cancelled = LockedBox(false)
    do {
      let token = Token()
      weakToken = token
      let publisher = (1...3).publisher
        .handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        .map { value -> Int in
          _ = token
          return value
        }
      var iterator = publisher.values.makeAsyncIterator()
      #expect(await iterator.next() == 1)
    }
    #expect(cancelled.withLock { $0 })
    #expect(weakToken == nil)
  }
}
