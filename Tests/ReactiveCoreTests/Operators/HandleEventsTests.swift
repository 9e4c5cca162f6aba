import ReactiveCore
import Testing

@Suite struct HandleEventsTests {
  @Test func handleEventsSeesEverything() {
    var log: [String] = []
    let cancellable = [1].publisher
      .handleEvents(
        receiveSubscription: { _ in log.append("subscription") },
        receiveOutput: { log.append("output \($0)") },
        receiveCompletion: { _ in log.append("completion") },
        receiveCancel: { log.append("cancel") },
        receiveRequest: { log.append("request \($0)") }
      )
      .sink { _ in }
    #expect(log == ["subscription", "request unlimited", "output 1", "completion"])
    cancellable.cancel()
  }

  // `handleEvents` as Combine shapes it.
  @Test func valuesAndCompletionsPassEvenBeforeTheSubscription() {
    let publisher = ManualPublisher<Int, TestError>(subscription: nil)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: nil, demandPerValue: .max(42))
    publisher.handleEvents().subscribe(tracking)
    #expect(publisher.send(1) == .max(42))
    publisher.send(completion: .finished)
    #expect(tracking.events == [.value(1), .completion(.finished)])
  }

  @Test func returnedDemandIsReportedAsARequest() {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let requests = LockedBox<[Subscribers.Demand]>([])
    let tracking = TrackingSubscriber<Int, TestError>(
      initialDemand: .max(1), demandPerValue: .max(2))
    publisher.handleEvents(receiveRequest: { demand in requests.withLock { $0.append(demand) } })
      .subscribe(tracking)
    publisher.send(1)
    #expect(requests.withLock { $0 } == [.max(1), .max(2)])
  }

  @Test func theHandlersAreReleasedOnCompletion() {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      publisher.handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} })
        .subscribe(TrackingSubscriber<Int, TestError>())
    }
    #expect(weakToken != nil)
    publisher.send(completion: .finished)
    #expect(weakToken == nil)
  }
}
