import Observation
import ReactiveCore
import ReactiveExtras
import Testing

/// CombineExt's own subscriptions (`Create`, `WithLatestFrom`, `Amb`, `Materialize`,
/// `Dematerialize`, `RetryWhen`, `ReplaySubject` and the relays) keep their demand in a
/// buffer that takes a request of `.none` as "nothing more for now". Their ports here do
/// the same instead of trapping; only what Combine itself builds (`map`, `filter`, …) keeps
/// Combine's trap.
@Suite struct ZeroDemandTests {
  /// Subscribes a recorder that first asks for nothing, then for one value.
  private func askNothingThenOne<P: Publisher>(_ publisher: P) -> Recorder<P.Output, P.Failure> {
    let recorder = Recorder<P.Output, P.Failure>(initialDemand: Subscribers.Demand.none)
    publisher.subscribe(recorder)
    recorder.request(.none)
    recorder.request(.max(1))
    return recorder
  }

  @Test func withLatestFrom() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = CurrentValueSubject<Int, Never>(10)
    let recorder = askNothingThenOne(upstream.withLatestFrom(other) { $0 + $1 })
    upstream.send(1)
    upstream.send(2)
    #expect(recorder.values == [11])
    recorder.cancel()
  }

  @Test func amb() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let recorder = askNothingThenOne(first.amb(second))
    second.send(2)
    second.send(3)
    #expect(recorder.values == [2])
    recorder.cancel()
  }

  @Test func materializeAndDematerialize() {
    let subject = PassthroughSubject<Int, TestError>()
    let materialized = askNothingThenOne(subject.materialize())
    let dematerialized = askNothingThenOne(subject.materialize().dematerialize())
    subject.send(1)
    subject.send(2)
    #expect(materialized.values == [.value(1)])
    #expect(dematerialized.values == [1])
    materialized.cancel()
    dematerialized.cancel()
  }

  @Test func retryWhen() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = askNothingThenOne(subject.retryWhen { $0 })
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [1])
    recorder.cancel()
  }

  @Test func replaySubject() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 2)
    subject.send(1)
    subject.send(2)
    let recorder = askNothingThenOne(subject)
    #expect(recorder.values == [1])
    recorder.cancel()
  }

  @Test func relays() {
    let passthrough = PassthroughRelay<Int>()
    let current = CurrentValueRelay<Int>(0)
    let fromPassthrough = askNothingThenOne(passthrough)
    let fromCurrent = askNothingThenOne(current)
    passthrough.accept(1)
    passthrough.accept(2)
    current.accept(1)
    #expect(fromPassthrough.values == [1])
    #expect(fromCurrent.values == [0])
    fromPassthrough.cancel()
    fromCurrent.cancel()
  }

  @Test func create() {
    let recorder = askNothingThenOne(
      AnyPublisher<Int, Never>.create { subscriber in
        subscriber.send(1)
        subscriber.send(2)
        return AnyCancellable {}
      })
    #expect(recorder.values == [1])
    recorder.cancel()
  }

  @Test func observations() {
    let model = Model()
    let scheduler = TestScheduler()
    let recorder = askNothingThenOne(Publishers.Observations(scheduler: scheduler) { model.title })
    #expect(recorder.values == ["a"])
    recorder.cancel()
  }
}
