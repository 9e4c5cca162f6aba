import ReactiveCore
import ReactiveExtras
import Testing

@Suite struct MaterializeTests {
  @Test func valuesAndTheFailureBecomeEvents() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = Recorder<Event<Int, TestError>, Never>()
    subject.materialize().subscribe(recorder)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(recorder.values == [.value(1), .failure(.oops)])
    #expect(recorder.isFinished)
  }

  @Test func theFinishWaitsForDemand() {
    let recorder = Recorder<Event<Int, Never>, Never>(initialDemand: .max(2))
    [1, 2].publisher.materialize().subscribe(recorder)
    #expect(recorder.values == [.value(1), .value(2)])
    #expect(recorder.completions.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [.value(1), .value(2), .finished])
    #expect(recorder.isFinished)
  }

  @Test func dematerializeRoundTrips() {
    let recorder = Recorder<Int, TestError>()
    Fail<Int, TestError>(error: .oops).prepend(1, 2).materialize().dematerialize()
      .subscribe(recorder)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completions == [.failure(.oops)])
  }

  @Test func aFinishedEventEndsTheStreamAndCancelsUpstream() {
    let subscription = RecordingSubscription()
    let recorder = Recorder<Int, Never>()
    let subject = PassthroughSubject<Event<Int, Never>, Never>()
    subject.send(subscription: subscription)
    subject.dematerialize().subscribe(recorder)
    subject.send(.value(1))
    subject.send(.finished)
    subject.send(.value(2))
    #expect(recorder.values == [1])
    #expect(recorder.completions.count == 1)
  }

  @Test func valuesAndFailuresPickTheirEvents() {
    let events: [Event<Int, TestError>] = [.value(1), .failure(.oops), .value(2), .finished]
    let values = Recorder<Int, Never>()
    let failures = Recorder<TestError, Never>()
    events.publisher.values().subscribe(values)
    events.publisher.failures().subscribe(failures)
    #expect(values.values == [1, 2])
    #expect(failures.values == [.oops])
  }
}
