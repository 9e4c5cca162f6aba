import ReactiveCore
import Testing

@Suite struct SwitchToLatestTests {
  @Test func switchToLatestCancelsThePreviousInner() {
    let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var firstCancelled = false
    let tracker = TrackingSubscriber<Int, Never>()
    outer.switchToLatest().subscribe(tracker)
    outer.send(first.handleEvents(receiveCancel: { firstCancelled = true }).eraseToAnyPublisher())
    first.send(1)
    outer.send(second.eraseToAnyPublisher())
    #expect(firstCancelled)
    first.send(2)
    second.send(3)
    outer.send(completion: .finished)
    #expect(tracker.completions.isEmpty)
    second.send(completion: .finished)
    #expect(tracker.values == [1, 3])
    #expect(tracker.completions == [.finished])
  }

  @Test func switchToLatestCarriesDemandToTheNewInner() {
    let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
    outer.switchToLatest().subscribe(tracker)
    outer.send([1].publisher.eraseToAnyPublisher())
    outer.send((10...20).publisher.eraseToAnyPublisher())
    #expect(tracker.values == [1, 10, 11])
  }

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
  @Test func switchToLatestAcceptsMixedFailureTypes() {
    let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
    let switched:
      Publishers.SwitchToLatest<
        PassthroughSubject<Int, TestError>,
        Publishers.SetFailureType<
          PassthroughSubject<PassthroughSubject<Int, TestError>, Never>, TestError
        >
      > = outer.switchToLatest()
    #expect(switched.upstream.upstream === outer)
    let failingOuter = PassthroughSubject<Just<Int>, TestError>()
    var received: [Int] = []
    let cancellable = failingOuter.switchToLatest().sink(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    failingOuter.send(Just(4))
    #expect(received == [4])
    cancellable.cancel()
  }

  // `switchToLatest()` as Combine shapes it.
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
