import ReactiveCore
import ReactiveExtras
import Testing

/// CombineExt users' code, as its own tests write it, that did not port unchanged.
@Suite struct CombineExtPortingTests {
  @Test func aSequenceSubscribedToAPassthroughRelayReachesItsSubscribers() {
    let relay = PassthroughRelay<String>()
    var values: [String] = []
    var completed = false
    var subscriptions = Set<AnyCancellable>()
    relay.sink(receiveCompletion: { _ in completed = true }, receiveValue: { values.append($0) })
      .store(in: &subscriptions)
    ["1", "2", "3"].publisher.subscribe(relay).store(in: &subscriptions)
    #expect(!completed)
    #expect(values == ["1", "2", "3"])
  }

  /// The feed asks for values only as the relay's subscribers do, so the current value of
  /// a CurrentValueRelay is not lost before the passthrough relay has a subscriber.
  @Test func aCurrentValueRelayFeedingAPassthroughRelayKeepsItsInitialValue() {
    let input = CurrentValueRelay<String>("initial")
    let output = PassthroughRelay<String>()
    var values: [String] = []
    var completed = false
    var subscriptions = Set<AnyCancellable>()
    input.subscribe(output).store(in: &subscriptions)
    output.sink(receiveCompletion: { _ in completed = true }, receiveValue: { values.append($0) })
      .store(in: &subscriptions)
    input.accept("1")
    input.accept("2")
    #expect(!completed)
    #expect(values == ["initial", "1", "2"])
  }

  @Test func passthroughRelaysChain() {
    let input = PassthroughRelay<String>()
    let output = CurrentValueRelay<String>("start")
    var values: [String] = []
    var subscriptions = Set<AnyCancellable>()
    input.subscribe(output).store(in: &subscriptions)
    output.sink { values.append($0) }.store(in: &subscriptions)
    input.accept("1")
    #expect(values == ["start", "1"])
    #expect(output.value == "1")
  }

  @Test func createIgnoresARequestOfNoneAndDescribesItsSubscriptionAsCombineExt() {
    struct Oops: Error {}
    var description = ""
    var values: [String] = []
    let publisher = AnyPublisher<String, Oops>.create { subscriber in
      subscriber.send("a")
      return AnyCancellable {}
    }
    let subscriber = AnySubscriber<String, Oops>(
      receiveSubscription: {
        description = "\($0)"
        $0.request(.none)
      },
      receiveValue: {
        values.append($0)
        return .none
      },
      receiveCompletion: { _ in })
    publisher.subscribe(subscriber)
    #expect(description == "Create.Subscription<String, Oops>")
    #expect(values.isEmpty)
  }

  @Test func replaySubjectRespectsDemandAndCompletesAtOnce() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 4)
    for value in 1...4 { subject.send(value) }
    var results: [Int] = []
    var completed = false
    var held: (any Subscription)?
    subject.subscribe(
      AnySubscriber(
        receiveSubscription: {
          held = $0
          $0.request(.max(3))
        },
        receiveValue: {
          results.append($0)
          return .none
        },
        receiveCompletion: { _ in completed = true }))
    #expect(results == [1, 2, 3])
    #expect(!completed)
    subject.send(completion: .finished)
    #expect(completed)
    #expect(results == [1, 2, 3])
    held?.cancel()
  }

  @Test func variadicAndCollectionForms() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let c = PassthroughSubject<Int, Never>()
    var winners: [Int] = []
    let amb = a.amb(with: b, c).sink { winners.append($0) }
    b.send(2)
    a.send(1)
    #expect(winners == [2])
    amb.cancel()
    var combined: [[Int]] = []
    let latest = a.combineLatest(with: b, c).sink { combined.append($0) }
    a.send(1)
    b.send(2)
    c.send(3)
    #expect(combined == [[1, 2, 3]])
    latest.cancel()
    var zipped: [[Int]] = []
    let zip = a.zip(with: [b, c]).sink { zipped.append($0) }
    a.send(1)
    b.send(2)
    c.send(3)
    #expect(zipped == [[1, 2, 3]])
    zip.cancel()
  }
}
