import ReactiveCore
import Testing

@Suite struct RemoveDuplicatesTests {
  // The filtering operators (`tryFilter`, `tryCompactMap`, `prefix(while:)`,
  // `removeDuplicates` and their try variants) as Combine shapes them.
  @Test func removeDuplicatesComparesWithThePreviousValueEvenWhenItWasDropped() {
    // "Within 1 of the previous value" is not transitive: 1, 2, 3 drops 2 (near 1) and
    // then 3 (near 2, the previous value), as Combine does.
    let tracking = TrackingSubscriber<Int, Never>()
    [1, 2, 3, 10].publisher.eraseToAnyPublisher().removeDuplicates { abs($0 - $1) <= 1 }
      .subscribe(tracking)
    #expect(tracking.values == [1, 10])
  }

  @Test func removeDuplicatesShowsTheLastValueInItsMirror() {
    let subject = PassthroughSubject<Int, Never>()
    let held = LockedBox<(any Subscription)?>(nil)
    subject.eraseToAnyPublisher().removeDuplicates().subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in
          held.withLock { $0 = subscription }
          subscription.request(.unlimited)
        }, receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    subject.send(7)
    let mirror = held.withLock { $0 }.map { Mirror(reflecting: $0) }
    let last = mirror?.children.first { $0.label == "last" }?.value as? Int
    #expect(last == 7)
    // Break the cycle the test built (subscriber -> box -> subscription -> subscriber).
    let subscription = held.withLock { $0.take() }
    subscription?.cancel()
  }
}
