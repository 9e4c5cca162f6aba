import ReactiveCore
import Testing

/// `handleEvents` as Combine shapes it.
@Suite struct HandleEventsCombineTests {
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

/// `print` writes what Combine's does.
@Suite struct PrintCombineTests {
  final class Lines: TextOutputStream, @unchecked Sendable {
    var writes: [String] = []
    func write(_ string: String) { writes.append(string) }
  }

  @Test func writesAsSwiftPrintAndSpellsDemandAsCombine() {
    let lines = Lines()
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.print(to: lines).subscribe(tracking)
    #expect(
      Array(lines.writes.prefix(6)) == [
        "", "receive subscription: (ReactiveCoreTests.RecordingSubscription)", "\n",
        "", "request max: (2)", "\n",
      ])
  }

  @Test func keepsLoggingAfterACancel() throws {
    let lines = Lines()
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.print(to: lines).subscribe(tracking)
    let subscription = try #require(tracking.subscription)
    subscription.cancel()
    subscription.cancel()
    subscription.request(.max(1))
    publisher.send(3)
    #expect(
      Array(lines.writes.dropFirst(3)) == [
        "", "receive cancel", "\n", "", "receive cancel", "\n", "", "request max: (1)", "\n",
        "", "receive value: (3)", "\n",
      ])
  }
}

/// A current-value subject asks an upstream for values once.
@Suite struct CurrentValueUpstreamTests {
  @Test func anAdoptedUpstreamIsAskedOnce() {
    let upstream = RecordingSubscription()
    let subject = CurrentValueSubject<Int, Never>(0)
    subject.send(subscription: upstream)
    let tracking = TrackingSubscriber<Int, Never>()
    subject.subscribe(tracking)
    #expect(upstream.history == [.requested(.unlimited)])
  }
}
