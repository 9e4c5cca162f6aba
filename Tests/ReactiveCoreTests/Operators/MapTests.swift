import ReactiveCore
import Testing

@Suite struct MapTests {
  @Test func mapCompactMapAndKeyPaths() {
    #expect(collectAll([1, 2, 3].publisher.map { $0 * 2 }).0 == [2, 4, 6])
    #expect(collectAll([1, 2, 3].publisher.map { $0 + 1 }.map { $0 * 10 }).0 == [20, 30, 40])
    #expect(collectAll(["1", "x", "3"].publisher.compactMap { Int($0) }).0 == [1, 3])
    #expect(collectAll(["a", "bc"].publisher.map(\.count)).0 == [1, 2])
    let pairs = collectAll(["ab"].publisher.map(\.count, \.first)).0
    #expect(pairs.map(\.0) == [2])
    #expect(pairs.map(\.1) == ["a"])
    let triples = collectAll(["ab"].publisher.map(\.count, \.first, \.last)).0
    #expect(triples.map(\.2) == ["b"])
    #expect(collectAll([1, nil, 3].publisher.replaceNil(with: 0)).0 == [1, 0, 3])
  }

  @Test func tryMapFailsAndCancelsUpstream() {
    var cancelled = false
    let (values, completions) = collectAll(
      [1, 2, 3].publisher
        .handleEvents(receiveCancel: { cancelled = true })
        .tryMap { value -> Int in
          if value == 2 { throw TestError.oops }
          return value
        })
    #expect(values == [1])
    #expect(completions.count == 1)
    if case .failure(let error as TestError) = completions.first {
      #expect(error == .oops)
    } else {
      Issue.record("expected a failure")
    }
    #expect(cancelled)
  }

  @Test(arguments: [1, 2, 5])
  func mapFilterNeverExceedDemand(batch: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(batch))
    subject.map { $0 }.filter { _ in true }.subscribe(tracker)
    for value in 0..<20 { subject.send(value) }
    #expect(tracker.values.count == batch)
  }

  // Mirrors as Combine's: what debuggers and OpenCombine's reflection tests see.
  @Test func keyPathMapShowsItsKeyPaths() {
    let publisher = CapturingPublisher<Never>()
    let cancellable = publisher.map(\.self, \.bitWidth).sink { _ in }
    #expect(publisher.children.map { $0.prefix(while: { $0 != "=" }) } == ["keyPath0", "keyPath1"])
    cancellable.cancel()
  }

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
  @Test func mapAndFilterFuseIntoTheOperatorAlreadyThere() {
    let subject = PassthroughSubject<Int, Never>()
    let mapped = subject.map { $0 * 2 }
    let fused: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = mapped.tryMap { $0 + 1 }
    #expect(fused.upstream === subject)
    let compact = subject.compactMap { $0 > 0 ? $0 : nil }
    let compactFused: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> =
      compact.map { "\($0)" }
    #expect(compactFused.upstream === subject)
    let filtered: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
      subject.filter { $0 > 0 }.tryFilter { $0 < 10 }
    #expect(filtered.upstream === subject)
    var received: [Int] = []
    let cancellable = filtered.sink(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    for value in [-1, 5, 12, 7] { subject.send(value) }
    #expect(received == [5, 7])
    cancellable.cancel()
  }

  // `tryMap` and `tryScan` as Combine shapes them, quirks included.
  @Test func tryMapFailsOnEveryThrowAndCancelsUpstreamOnce() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let failures = LockedBox(0)
    let values = LockedBox<[Int]>([])
    let cancellable = publisher.tryMap { value -> Int in
      if value == 100 { throw TestError.oops }
      return value * 2
    }.sink(
      receiveCompletion: { _ in failures.withLock { $0 += 1 } },
      receiveValue: { value in values.withLock { $0.append(value) } })
    publisher.send(2)
    publisher.send(100)
    publisher.send(100)
    #expect(values.withLock { $0 } == [4])
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    // The sink itself stops at the first completion; tryMap sent both.
    #expect(failures.withLock { $0 } == 1)
    cancellable.cancel()
  }

  @Test func aCancelBeforeTheSubscriptionKeepsTheLateSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    publisher.tryMap { $0 }.subscribe(
      AnySubscriber<Int, any Error>(
        receiveSubscription: { _ in }, receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [])
  }
}
