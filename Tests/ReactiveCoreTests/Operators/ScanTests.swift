import ReactiveCore
import Testing

@Suite struct ScanTests {
  @Test func scanAndRemoveDuplicates() {
    #expect(collectAll((1...4).publisher.scan(0, +)).0 == [1, 3, 6, 10])
    #expect(collectAll((1...4).publisher.tryScan(0, +)).0 == [1, 3, 6, 10])
    #expect(collectAll([1, 1, 2, 2, 1].publisher.removeDuplicates()).0 == [1, 2, 1])
    #expect(collectAll([1, 2, 4, 5].publisher.removeDuplicates { $1 - $0 == 1 }).0 == [1, 4])
    #expect(collectAll([1, 1, 3].publisher.tryRemoveDuplicates(by: ==)).0 == [1, 3])
  }

  @Test func scanKeepsStatePerSubscription() {
    let scan = (1...3).publisher.scan(0, +)
    #expect(collectAll(scan).0 == [1, 3, 6])
    #expect(collectAll(scan).0 == [1, 3, 6])
  }

  @Test func operatorsIgnoreEventsAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    subject.scan(0, +).removeDuplicates().subscribe(tracker)
    subject.send(1)
    tracker.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.values == [1])
    #expect(tracker.completions.isEmpty)
  }

  // Mirrors as Combine's: what debuggers and OpenCombine's reflection tests see.
  @Test func scanShowsItsDownstreamAndRunningResult() {
    let publisher = CapturingPublisher<Never>()
    let cancellable = publisher.scan(10, +).sink { _ in }
    #expect(publisher.children.map { $0.prefix(while: { $0 != "=" }) } == ["downstream", "result"])
    #expect(publisher.children.last == "result=10")
    _ = (publisher.subscriber as? any Subscriber<Int, Never>)?.receive(5)
    #expect(publisher.children.last == "result=15")
    cancellable.cancel()
  }

  // `tryMap` and `tryScan` as Combine shapes them, quirks included.
  @Test func tryScanShowsItsRunningResult() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let held = LockedBox<(any Subscription)?>(nil)
    publisher.tryScan(0) { $0 + $1 }.subscribe(
      AnySubscriber<Int, any Error>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    publisher.send(3)
    publisher.send(4)
    let mirror = held.withLock { $0 }.map { Mirror(reflecting: $0) }
    #expect(mirror?.children.first { $0.label == "result" }?.value as? Int == 7)
    #expect(held.withLock { $0 }.map { "\($0)" } == "TryScan")
    // Break the cycle the test built (subscriber -> box -> subscription -> subscriber).
    let subscription = held.withLock { $0.take() }
    subscription?.cancel()
  }
}
