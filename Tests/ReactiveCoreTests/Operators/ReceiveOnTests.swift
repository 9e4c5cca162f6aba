import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

@Suite struct ReceiveOnTests {
  @Test func deliversValuesAndCompletionOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.receive(on: scheduler).subscribe(tracking)
    // Combine hands the subscription over at once; only values and the completion go
    // through the scheduler (OpenCombine's ReceiveOnTests.testBasicBehavior, which runs
    // against Combine, asserts it before the scheduler runs anything).
    #expect(tracking.events == [.subscription("ReceiveOn")])
    scheduler.advance()
    #expect(tracking.events == [.subscription("ReceiveOn")])
    subject.send(1)
    subject.send(2)
    #expect(tracking.values.isEmpty)
    scheduler.advance()
    #expect(tracking.values == [1, 2])
    subject.send(completion: .failure(.oops))
    subject.send(3)
    #expect(tracking.completions.isEmpty)
    scheduler.advance()
    #expect(
      tracking.events == [
        .subscription("ReceiveOn"), .value(1), .value(2), .completion(.failure(.oops)),
      ])
  }

  @Test func demandOfOneAtATime() {
    let scheduler = TestScheduler()
    let tracking = Tracking(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.setFailureType(to: TestError.self).receive(on: scheduler)
      .subscribe(tracking)
    scheduler.advance()
    #expect(tracking.values == [1, 2, 3])
    #expect(tracking.completions == [.finished])

    let subject = Subject()
    let single = Tracking(initialDemand: .max(1))
    subject.receive(on: scheduler).subscribe(single)
    scheduler.advance()
    subject.send(1)
    subject.send(2)  // no demand: the subject drops it
    scheduler.advance()
    #expect(single.values == [1])
    single.request(.max(1))
    subject.send(3)
    scheduler.advance()
    #expect(single.values == [1, 3])
  }

  @Test func cancelStopsScheduledDeliveriesAndReleasesTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var received: [Int] = []
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.receive(on: scheduler).sink(
        receiveCompletion: { _ in _ = token },
        receiveValue: {
          _ = token
          received.append($0)
        })
    }
    scheduler.advance()
    subject.send(1)
    cancellable?.cancel()
    // Combine's receive(on:) keeps its subscriber until work already scheduled has run
    // (OpenCombine's ReceiveOnTests.testStrongCaptureWhenSchedulingValue and
    // testReceiveOnLifecycle), so the token goes with the scheduled delivery of 1.
    // (Combine's Sink also drops its closures on cancel, which frees the token at once.)
    scheduler.advance()
    #expect(weakToken == nil)
    subject.send(2)
    scheduler.advance()
    #expect(received.isEmpty)
  }

  @Test func reentrantSendFromTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var received: [Int] = []
    let cancellable = subject.receive(on: scheduler).sink(
      receiveCompletion: { _ in },
      receiveValue: {
        received.append($0)
        if $0 == 1 { subject.send(2) }
      })
    scheduler.advance()
    subject.send(1)
    scheduler.advance()
    #expect(received == [1, 2])
    cancellable.cancel()
  }

  @Test func receiveOnHandsTheSubscriptionOverAtOnce() {
    let scheduler = RecordingScheduler()
    let tracking = Tracking()
    Upstream(subscription: RecordingSubscription()).receive(on: scheduler).subscribe(tracking)
    #expect(tracking.events == [.subscription("ReceiveOn")])
    #expect(scheduler.calls.isEmpty)
    tracking.cancel()
  }
}
