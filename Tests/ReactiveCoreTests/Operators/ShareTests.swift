import ReactiveCore
import Testing

@Suite struct ShareTests {
  @Test func shareSubscribesUpstreamOnce() {
    var runs = 0
    let shared = Deferred { () -> PassthroughSubject<Int, Never> in
      runs += 1
      return PassthroughSubject()
    }.share()
    let a = shared.sink { _ in }
    let b = shared.sink { _ in }
    #expect(runs == 1)
    #expect(shared == shared)
    a.cancel()
    b.cancel()
  }

  @Test func shareDeliversToEverySubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.map { $0 * 2 }.share()
    var a: [Int] = []
    var b: [Int] = []
    let first = shared.sink { a.append($0) }
    let second = shared.sink { b.append($0) }
    subject.send(1)
    subject.send(2)
    #expect(a == [2, 4])
    #expect(b == [2, 4])
    first.cancel()
    second.cancel()
  }

  // `autoconnect()` and `share()` as Combine shapes them.
  @Test func subscribersSeeTheUpstreamSubscriptionAndTheLastCancelDisconnects() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let shared = publisher.share()
    let first = TrackingSubscriber<Int, Never>()
    let second = TrackingSubscriber<Int, Never>()
    shared.subscribe(first)
    shared.subscribe(second)
    #expect(first.events.first == .subscription("Multicast"))
    first.cancel()
    #expect(upstream.history == [.requested(.unlimited)])
    second.cancel()
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
  }
}
