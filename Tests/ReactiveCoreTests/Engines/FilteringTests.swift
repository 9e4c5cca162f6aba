// Cross-cutting: the filtering operators whose subscriber is their subscription.

import ReactiveCore
import Testing

@Suite struct FilteringTests {
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

  // The filtering operators (`tryFilter`, `tryCompactMap`, `prefix(while:)`,
  // `removeDuplicates` and their try variants) as Combine shapes them.
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
}
