import ReactiveCore
import Testing

/// The filtering operators (`tryFilter`, `tryCompactMap`, `prefix(while:)`,
/// `removeDuplicates` and their try variants) as Combine shapes them.
@Suite struct FilteringCombineTests {
  @Test func removeDuplicatesComparesWithThePreviousValueEvenWhenItWasDropped() {
    // "Within 1 of the previous value" is not transitive: 1, 2, 3 drops 2 (near 1) and
    // then 3 (near 2, the previous value), as Combine does.
    let tracking = TrackingSubscriber<Int, Never>()
    [1, 2, 3, 10].publisher.eraseToAnyPublisher().removeDuplicates { abs($0 - $1) <= 1 }
      .subscribe(tracking)
    #expect(tracking.values == [1, 10])
  }

  @Test(arguments: ["TryFilter", "TryCompactMap", "PrefixWhile", "RemoveDuplicates"])
  func theSubscriberIsTheSubscriptionAndNamesItsOperator(_ name: String) {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let described = LockedBox<String?>(nil)
    Self.filtering(name, on: publisher).subscribe(
      AnySubscriber<Int, any Error>(
        receiveSubscription: { subscription in described.withLock { $0 = "\(subscription)" } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    publisher.send(subscription: RecordingSubscription())
    #expect(described.withLock { $0 } == name)
    #expect(publisher.rawSubscriber is any Subscription)
  }

  @Test func aCancelBeforeTheSubscriptionCancelsTheLateSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    _ = publisher.tryFilter { _ in true }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    // No subscription has arrived; cancel through the operator's own subscriber.
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.cancelled])
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
  }

  @Test func aValueBeforeTheSubscriptionTraps() async {
    await #expect(processExitsWith: .failure) {
      let publisher = ManualPublisher<Int, Never>(subscription: nil)
      _ = publisher.prefix { _ in true }.sink { _ in }
      publisher.send(1)
    }
  }

  @Test func zeroDemandTraps() async {
    await #expect(processExitsWith: .failure) {
      let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
      publisher.tryFilter { _ in true }.subscribe(
        AnySubscriber<Int, any Error>(
          receiveSubscription: { $0.request(.none) }, receiveValue: { _ in .none },
          receiveCompletion: { _ in }))
    }
  }

  private static func filtering(
    _ name: String, on publisher: ManualPublisher<Int, Never>
  ) -> AnyPublisher<Int, any Error> {
    switch name {
    case "TryFilter": publisher.tryFilter { _ in true }.eraseToAnyPublisher()
    case "TryCompactMap": publisher.tryCompactMap { $0 }.eraseToAnyPublisher()
    case "PrefixWhile":
      publisher.prefix { _ in true }.setFailureType(to: (any Error).self).eraseToAnyPublisher()
    default:
      publisher.removeDuplicates().setFailureType(to: (any Error).self).eraseToAnyPublisher()
    }
  }
}
