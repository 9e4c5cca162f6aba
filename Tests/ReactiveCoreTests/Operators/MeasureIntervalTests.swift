import ReactiveCore
import Testing

@Suite struct MeasureIntervalTests {
  @Test func emitsTheTimeSinceThePreviousEvent() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Void, TestError>()
    let tracking = TrackingSubscriber<SchedulerStride, TestError>()
    subject.measureInterval(using: scheduler).subscribe(tracking)
    scheduler.advance(by: .milliseconds(1_500))
    subject.send()
    scheduler.advance(by: .milliseconds(250))
    subject.send()
    subject.send()
    subject.send(completion: .failure(.oops))
    #expect(
      tracking.events == [
        .subscription("MeasureInterval"), .value(.milliseconds(1_500)),
        .value(.milliseconds(250)), .value(.zero), .completion(.failure(.oops)),
      ])
  }

  @Test func demandOfOneAtATime() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Void, TestError>()
    let tracking = TrackingSubscriber<SchedulerStride, TestError>(initialDemand: .max(1))
    subject.measureInterval(using: scheduler).subscribe(tracking)
    subject.send()
    subject.send()
    #expect(tracking.values.count == 1)
    tracking.request(.max(1))
    scheduler.advance(by: .seconds(2))
    subject.send()
    #expect(tracking.values == [.zero, .seconds(2)])
  }

  @Test func cancelReleases() {
    let subject = PassthroughSubject<Void, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.measureInterval(using: TestScheduler()).sink { _ in _ = token }
    }
    cancellable?.cancel()
    #expect(weakToken == nil)
  }

  /// The demand a subscriber returns for an interval goes upstream as a request, as in
  /// Combine; the operator itself returns none.
  @Test func returnedDemandBecomesARequest() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, TestError>(subscription: upstreamSubscription)
    let tracking = TrackingSubscriber<SchedulerStride, TestError>(
      initialDemand: .max(1), demandPerValue: .max(2))
    upstream.measureInterval(using: TestScheduler()).subscribe(tracking)
    #expect(upstream.send(1) == .none)
    #expect(upstreamSubscription.history == [.requested(.max(1)), .requested(.max(2))])
    tracking.cancel()
  }

  @Test func readsTheClockOnlyWhileSubscribed() {
    let scheduler = RecordingScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<SchedulerStride, TestError>()
    upstream.measureInterval(using: scheduler).subscribe(tracking)
    upstream.send(1)
    tracking.cancel()
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(scheduler.calls == [.now, .now])
    #expect(tracking.values == [.zero])
  }
}
