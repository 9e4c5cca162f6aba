import ReactiveCore
import Testing

@Suite struct PrefixWhileTests {
  // The filtering operators (`tryFilter`, `tryCompactMap`, `prefix(while:)`,
  // `removeDuplicates` and their try variants) as Combine shapes them.
  @Test func aValueBeforeTheSubscriptionTraps() async {
    await #expect(processExitsWith: .failure) {
      let publisher = ManualPublisher<Int, Never>(subscription: nil)
      _ = publisher.prefix { _ in true }.sink { _ in }
      publisher.send(1)
    }
  }
}
