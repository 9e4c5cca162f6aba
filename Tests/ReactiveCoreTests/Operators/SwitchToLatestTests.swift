import ReactiveCore
import Testing

/// `switchToLatest()` as Combine shapes it.
@Suite struct SwitchToLatestCombineTests {
  @Test func outstandingDemandCarriesOverToTheNextInnerPublisher() {
    let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(5))
    outer.switchToLatest().subscribe(tracking)
    let first = RecordingSubscription()
    let firstPublisher = ManualPublisher<Int, Never>(subscription: first)
    outer.send(firstPublisher)
    firstPublisher.send(1)
    let second = RecordingSubscription()
    outer.send(ManualPublisher<Int, Never>(subscription: second))
    #expect(first.history == [.requested(.max(5)), .cancelled])
    #expect(second.history == [.requested(.max(4))])
    #expect(tracking.events.first == .subscription("SwitchToLatest"))
  }

  @Test func theUpstreamFinishWaitsForTheCurrentInnerPublisher() {
    let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let tracking = TrackingSubscriber<Int, Never>()
    outer.switchToLatest().subscribe(tracking)
    let inner = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    outer.send(inner)
    outer.send(completion: .finished)
    #expect(tracking.completions.isEmpty)
    inner.send(completion: .finished)
    #expect(tracking.completions == [.finished])
  }

  @Test func theSubscriberGetsItsSubscriptionBeforeUpstreamIsSubscribed() {
    let upstream = ManualPublisher<Just<Int>, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>()
    upstream.switchToLatest().subscribe(tracking)
    #expect(tracking.events == [.subscription("SwitchToLatest")])
  }

  @Test func aValueNobodyAskedForTraps() async {
    await #expect(processExitsWith: .failure) {
      let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
      let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
      outer.switchToLatest().subscribe(tracking)
      let inner = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
      outer.send(inner)
      inner.send(1)
    }
  }
}
