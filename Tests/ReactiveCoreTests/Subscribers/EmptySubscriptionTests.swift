import ReactiveCore
import Testing

@Suite struct EmptySubscriptionTests {
  @Test func emptySubscriptionIgnoresEverything() {
    Subscriptions.empty.request(.max(1))
    Subscriptions.empty.cancel()
    #expect(String(describing: Subscriptions.empty) == "Empty")
  }
}
