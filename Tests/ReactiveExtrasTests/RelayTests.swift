import ReactiveCore
import ReactiveExtras
import Testing

@Suite struct RelayTests {
  @Test func aPassthroughRelaySendsToCurrentSubscribers() {
    let relay = PassthroughRelay<Int>()
    relay.accept(0)
    let recorder = Recorder<Int, Never>()
    relay.subscribe(recorder)
    relay.accept(1)
    #expect(recorder.values == [1])
  }

  @Test func aCurrentValueRelayStartsWithItsValue() {
    let relay = CurrentValueRelay("a")
    let recorder = Recorder<String, Never>()
    relay.subscribe(recorder)
    relay.accept("b")
    #expect(recorder.values == ["a", "b"])
    #expect(relay.value == "b")
  }

  @Test func aFeedingPublisherThatFinishesDoesNotFinishTheRelay() {
    let relay = PassthroughRelay<Int>()
    let recorder = Recorder<Int, Never>()
    relay.subscribe(recorder)
    let feeding = [1, 2].publisher.subscribe(relay)
    relay.accept(3)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completions.isEmpty)
    feeding.cancel()
  }

  @Test func aRelayFinishesItsSubscribersWhenItGoes() {
    let recorder = Recorder<Int, Never>()
    weak var weakRelay: CurrentValueRelay<Int>?
    do {
      let relay = CurrentValueRelay(0)
      weakRelay = relay
      relay.subscribe(recorder)
    }
    #expect(weakRelay == nil)
    #expect(recorder.isFinished)
  }

  @Test func aFeedingSubscriptionDoesNotKeepTheRelay() {
    let source = PassthroughSubject<Int, Never>()
    weak var weakRelay: PassthroughRelay<Int>?
    var feeding: AnyCancellable?
    do {
      let relay = PassthroughRelay<Int>()
      weakRelay = relay
      feeding = source.subscribe(relay)
    }
    #expect(weakRelay == nil)
    source.send(1)
    feeding?.cancel()
  }
}
