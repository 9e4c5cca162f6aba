import ReactiveCore
import Testing

@Suite struct FilterTests {
  @Test func filterAndTryFilterAndTryCompactMap() {
    #expect(collectAll((1...6).publisher.filter { $0.isMultiple(of: 2) }).0 == [2, 4, 6])
    #expect(collectAll((1...6).publisher.filter { $0 > 1 }.filter { $0 < 4 }).0 == [2, 3])
    #expect(collectAll((1...6).publisher.tryFilter { $0 > 4 }).0 == [5, 6])
    #expect(collectAll((1...3).publisher.tryCompactMap { $0 == 2 ? nil : $0 }).0 == [1, 3])
  }

  // The filtering operators (`tryFilter`, `tryCompactMap`, `prefix(while:)`,
  // `removeDuplicates` and their try variants) as Combine shapes them.
  @Test func aCancelBeforeTheSubscriptionCancelsTheLateSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    _ = publisher.tryFilter { _ in true }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    // No subscription has arrived; cancel through the operator's own subscriber.
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.cancelled])
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
}
