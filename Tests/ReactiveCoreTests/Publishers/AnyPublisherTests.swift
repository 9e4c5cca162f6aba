import ReactiveCore
import Testing

@Suite struct AnyPublisherTests {
  @Test func anyPublisherAndAnySubscriberForward() {
    let erased = [1, 2].publisher.map { $0 * 2 }.eraseToAnyPublisher()
    #expect(erased.description == "AnyPublisher")
    let tracker = TrackingSubscriber<Int, Never>()
    erased.subscribe(AnySubscriber(tracker))
    #expect(tracker.values == [2, 4])
    #expect(AnySubscriber<Int, Never>().description == "Anonymous AnySubscriber")
  }
}
