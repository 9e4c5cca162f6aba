import ReactiveCore
import Testing

@Suite struct DropFirstTests {
  @Test func dropAndPrefix() {
    #expect(collectAll((1...5).publisher.dropFirst()).0 == [2, 3, 4, 5])
    #expect(collectAll((1...5).publisher.dropFirst(3)).0 == [4, 5])
    #expect(collectAll([1, 2, 5, 1].publisher.drop { $0 < 3 }).0 == [5, 1])
    #expect(collectAll([1, 2, 5, 1].publisher.tryDrop { $0 < 3 }).0 == [5, 1])
    #expect(collectAll((1...9).publisher.prefix(2)).0 == [1, 2])
    #expect(collectAll([1, 2, 5, 1].publisher.prefix { $0 < 3 }).0 == [1, 2])
    #expect(collectAll([1, 2, 5, 1].publisher.tryPrefix { $0 < 3 }).0 == [1, 2])
    #expect(collectAll((0...9).publisher.output(at: 4)).0 == [4])
    #expect(collectAll((0...9).publisher.output(in: 3...5)).0 == [3, 4, 5])
    #expect(collectAll((0...9).publisher.output(in: 3..<5)).1 == [.finished])
  }

  @Test func dropFirstHonoursDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    (1...6).publisher.dropFirst(2).subscribe(tracker)
    #expect(tracker.values == [3, 4])
    #expect(tracker.completions.isEmpty)
  }

  // `dropFirst(_:)` and `drop(while:)` as Combine shapes them.
  @Test func dropFirstHandsOutItsSubscriptionAtOnceAndAsksForTheDroppedElementsUpFront() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.dropFirst(3).subscribe(tracking)
    #expect(tracking.events == [.subscription("Drop")])
    let upstream = RecordingSubscription()
    publisher.send(subscription: upstream)
    #expect(upstream.history == [.requested(.max(5))])
    for value in 1...5 { publisher.send(value) }
    #expect(tracking.values == [4, 5])
  }

  // Zero demand: Combine treats it as no demand in buffering and timing operators, and
  // traps on it where it traps (here, as there, a subject subscription).
  @Test func dropFirstTrapsOnANegativeCountWhenSubscribedNotWhenMade() async {
    _ = Just(1).eraseToAnyPublisher().dropFirst(-1)
    await #expect(processExitsWith: .failure) {
      _ = Just(1).eraseToAnyPublisher().dropFirst(-1).sink { _ in }
    }
  }
}
