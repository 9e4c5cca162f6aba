import ReactiveCore
import ReactiveExtras
import Testing

/// CombineExt's own tests for `amb` and `ReplaySubject`, as behaviour (not code).
@Suite struct CombineExtAmbBehaviourTests {
  /// testAmbLimitedPreDemand: the demand asked for before the race is decided is what the
  /// winner may send.
  @Test func demandAskedBeforeTheRaceIsWhatTheWinnerSends() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    var held: (any Subscription)?
    first.amb(second)
      .subscribe(
        AnySubscriber(
          receiveSubscription: { subscription in
            held = subscription
            subscription.request(.max(2))
            second.send(3)
            first.send(1)
            first.send(0)
            second.send(0)
            second.send(7)
            second.send(11)
            first.send(12)
            second.send(14)
          },
          receiveValue: {
            values.append($0)
            return .none
          },
          receiveCompletion: { _ in }))
    #expect(values == [3, 0])
    held?.cancel()
  }

  /// testAmbEmptyAndNever, testAmbEmptyAndEmpty, testAmbNeverAndNever.
  @Test func finishingCountsAsTheFirstEvent() {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    let mirror = Empty<Int, Never>(completeImmediately: false).append(0)
      .amb(Empty<Int, Never>(completeImmediately: true).append(1))
      .sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
    #expect(values == [1])
    #expect(completions == [.finished])
    mirror.cancel()

    var emptyCompletions: [Subscribers.Completion<Never>] = []
    let empty = Publishers.Amb(first: Empty<Int, Never>(), second: Empty<Int, Never>())
      .sink(receiveCompletion: { emptyCompletions.append($0) }, receiveValue: { _ in })
    #expect(emptyCompletions == [.finished])
    empty.cancel()

    var neverCompletions: [Subscribers.Completion<Never>] = []
    let never = Publishers.Amb(
      first: Empty<Int, Never>(completeImmediately: false),
      second: Empty<Int, Never>(completeImmediately: false)
    )
    .sink(receiveCompletion: { neverCompletions.append($0) }, receiveValue: { _ in })
    #expect(neverCompletions.isEmpty)
    never.cancel()
  }

  /// testAmbVariadicValues: each race mirrors its own winner, and finishes with it.
  @Test func variadicRaces() {
    let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let four = Recorder<Int, Never>()
    let three = Recorder<Int, Never>()
    let pair = Recorder<Int, Never>()
    subjects[3].amb(with: subjects[1], subjects[2], subjects[0]).subscribe(four)
    subjects[0].amb(with: subjects[1], subjects[2]).subscribe(three)
    subjects[0].amb(with: subjects[1]).subscribe(pair)
    for (index, value) in [(3, 3), (1, 1), (1, 2), (2, 5), (0, 6), (2, 2), (0, 6), (3, 2)] {
      subjects[index].send(value)
    }
    subjects[0].send(6)
    subjects[3].send(7)
    subjects[1].send(8)
    #expect(four.values == [3, 2, 7])
    #expect(three.values == [1, 2, 8])
    #expect(pair.values == [1, 2, 8])
    subjects[0].send(completion: .finished)
    subjects[1].send(completion: .finished)
    #expect(pair.isFinished)
    #expect(!four.isFinished)
    subjects[2].send(completion: .finished)
    #expect(three.isFinished)
    #expect(!four.isFinished)
    subjects[3].send(completion: .finished)
    #expect(four.isFinished)
  }

  /// testAmbCollectionNone, testAmbCollectionOne, testAmbCollectionMany.
  @Test func collections() {
    let none = Recorder<Int, Never>()
    [AnyPublisher<Int, Never>]().amb().subscribe(none)
    #expect(none.values.isEmpty && none.isFinished)

    let only = PassthroughSubject<Int, Never>()
    let one = Recorder<Int, Never>()
    [only].amb().subscribe(one)
    only.send(1)
    only.send(completion: .finished)
    #expect(one.values == [1] && one.isFinished)

    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let many = Recorder<Int, Never>()
    subjects.amb().subscribe(many)
    subjects[0].send(1)
    subjects[1].send(2)
    subjects[2].send(3)
    subjects[0].send(4)
    subjects[0].send(completion: .finished)
    #expect(many.values == [1, 4] && many.isFinished)
  }
}

@Suite struct CombineExtReplaySubjectBehaviourTests {
  /// testDoubleSubscribe: one subscriber attached twice gets each replay, each with its
  /// own demand, and each completion.
  @Test func oneSubscriberAttachedTwice() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 1)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    var results: [String] = []
    var completions: [Subscribers.Completion<Never>] = []
    let subscriber = AnySubscriber<String, Never>(
      receiveSubscription: { $0.request(.max(1)) },
      receiveValue: {
        results.append($0)
        return .none
      },
      receiveCompletion: { completions.append($0) })
    subject.map { "a\($0)" }.subscribe(subscriber)
    subject.map { "b\($0)" }.subscribe(subscriber)
    #expect(results == ["a2", "b2"])
    #expect(completions == [.finished, .finished])
  }

  /// testErrorWithMultipleSubscribers, testNoValuesReplayedPostError.
  @Test func aFailureIsReplayedAfterTheValuesAndNothingFollowsIt() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(.oops))
    subject.send(3)
    let recorders = (0..<3).map { _ in Recorder<Int, TestError>() }
    for recorder in recorders { subject.subscribe(recorder) }
    subject.send(4)
    for recorder in recorders {
      #expect(recorder.values == [1, 2])
      #expect(recorder.completions == [.failure(.oops)])
    }
  }

  /// testMissedValueWithEmptyBuffer, testMultipleSubscribers.
  @Test func liveValuesReachEverySubscriber() {
    let empty = ReplaySubject<Int, Never>(bufferSize: 0)
    empty.send(1)
    let late = Recorder<Int, Never>()
    empty.subscribe(late)
    empty.send(2)
    #expect(late.values == [2])

    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    subject.send(1)
    subject.send(2)
    let recorders = (0..<3).map { _ in Recorder<Int, Never>() }
    for recorder in recorders { subject.subscribe(recorder) }
    subject.send(3)
    for recorder in recorders { #expect(recorder.values == [1, 2, 3]) }
    for recorder in recorders + [late] { recorder.cancel() }
  }
}

/// Bugs CombineExt's issue tracker records, with the behaviour that fixes them.
@Suite struct CombineExtRecordedBugTests {
  /// CombineExt #115: `share(replay:)` of a publisher that sends at once (`Just`) gave the
  /// subscriber nothing, because the values arrived before its demand did.
  @Test func shareReplayOfJustDeliversItsValueAndFinish() {
    let recorder = Recorder<String, Never>()
    Just("value").share(replay: 1).subscribe(recorder)
    #expect(recorder.values == ["value"])
    #expect(recorder.isFinished)
  }

  /// CombineExt #157: after a finite publisher fed a relay (`["1", "2", "3"].publisher
  /// .subscribe(relay)`), the relay's own `accept` no longer reached its subscribers.
  @Test func aRelayStillAcceptsAfterAFeedingPublisherFinishes() {
    let relay = CurrentValueRelay<String>("initial")
    let recorder = Recorder<String, Never>()
    relay.subscribe(recorder)
    let feed = ["1", "2", "3"].publisher.subscribe(relay)
    relay.accept("4")
    #expect(recorder.values == ["initial", "1", "2", "3", "4"])
    #expect(!recorder.isFinished)
    feed.cancel()
    recorder.cancel()
  }
}

/// CombineExt #137 and #167: a relay kept its cancelled subscribers (and so whatever they
/// held) alive.
@Suite struct CombineExtRelayLifetimeTests {
  @Test func cancellingASubscriptionToARelayReleasesTheSubscriber() {
    let passthrough = PassthroughRelay<Int>()
    let current = CurrentValueRelay<Token>(Token())
    weak var weakFirst: Recorder<Int, Never>?
    weak var weakSecond: Recorder<Token, Never>?
    do {
      let first = Recorder<Int, Never>()
      let second = Recorder<Token, Never>()
      weakFirst = first
      weakSecond = second
      passthrough.subscribe(first)
      current.subscribe(second)
      passthrough.accept(1)
      first.cancel()
      second.cancel()
    }
    #expect(weakFirst == nil)
    #expect(weakSecond == nil)
  }
}

/// CombineExt's ShareReplayTests, as behaviour.
@Suite struct CombineExtShareReplayBehaviourTests {
  /// testSharingNoReplay: three subscribers, one subscription upstream.
  @Test func subscribersShareOneSubscription() {
    let subscribeCount = LockedBox(0)
    let publisher = Publishers.Create<Int, Never> { subscriber in
      subscribeCount.withLock { $0 += 1 }
      for value in 1...3 { subscriber.send(value) }
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }
    .share(replay: 0)
    var cancellables = Set<AnyCancellable>()
    for _ in 0..<3 { publisher.sink { _ in }.store(in: &cancellables) }
    #expect(subscribeCount.withLock { $0 } == 1)
  }

  /// testSequentialUpstreamWithShareReplay: both sides of a zip get Just's value.
  @Test func bothSidesOfAZipGetJustsValue() {
    let publisher = Just(1).eraseToAnyPublisher().share(replay: 1)
    let recorder = Recorder<[Int], Never>()
    Publishers.Zip(publisher, publisher).map { [$0, $1] }.subscribe(recorder)
    #expect(recorder.values == [[1, 1]])
    #expect(recorder.isFinished)
  }

  /// testSharingWithErrorEvent, testErrorWithNoReplay.
  @Test func aFailureIsReplayedAfterTheLastValues() {
    let subject = PassthroughSubject<Int, TestError>()
    let publisher = subject.share(replay: 3)
    let first = Recorder<Int, TestError>()
    publisher.subscribe(first)
    for value in 1...4 { subject.send(value) }
    subject.send(completion: .failure(.oops))
    let second = Recorder<Int, TestError>()
    publisher.subscribe(second)
    #expect(first.values == [1, 2, 3, 4])
    #expect(first.completions == [.failure(.oops)])
    #expect(second.values == [2, 3, 4])
    #expect(second.completions == [.failure(.oops)])

    let failing = PassthroughSubject<Int, TestError>()
    let early = Recorder<Int, TestError>()
    failing.share(replay: 1).subscribe(early)
    failing.send(completion: .failure(.oops))
    failing.send(1)
    #expect(early.values.isEmpty)
    #expect(early.completions == [.failure(.oops)])
  }
}

/// CombineExt's `testStoredObjectsAreReleasedWithWithLatestFrom…`: relays that an object
/// declares before its cancellables, joined by `withLatestFrom`. When the object goes,
/// its stored properties go in declaration order, the relays first: the subscription
/// keeps its upstream relay (and the relay its subscribers) until the cancellables go
/// and cancel it, and then everything is released: the latest value `withLatestFrom`
/// stored included, with a cancel rather than a completion.
@Suite(.serialized) struct CombineExtWithLatestFromRelayLifetimeTests {
  final class Stored: @unchecked Sendable {}

  final class Container: @unchecked Sendable {
    let relay = PassthroughRelay<Stored>()
    let relay2 = PassthroughRelay<Stored>()
    var cancellables = Set<AnyCancellable>()
    let events: LockedBox<[String]>

    init(events: LockedBox<[String]>, latest: Stored) {
      self.events = events
      relay.withLatestFrom(relay2)
        .handleEvents(receiveCancel: { events.withLock { $0.append("cancel") } })
        .sink(
          receiveCompletion: { _ in events.withLock { $0.append("completion") } },
          receiveValue: { _ in }
        )
        .store(in: &cancellables)
      relay2.accept(latest)
    }
  }

  final class ContainerWithCancellablesFirst: @unchecked Sendable {
    var cancellables = Set<AnyCancellable>()
    let relay = PassthroughRelay<Stored>()
    let relay2 = PassthroughRelay<Stored>()

    init(events: LockedBox<[String]>, latest: Stored) {
      relay.withLatestFrom(relay2)
        .handleEvents(receiveCancel: { events.withLock { $0.append("cancel") } })
        .sink(
          receiveCompletion: { _ in events.withLock { $0.append("completion") } },
          receiveValue: { _ in }
        )
        .store(in: &cancellables)
      relay2.accept(latest)
    }
  }

  @Test(arguments: [true, false])
  func everythingGoesWithTheObjectWhateverTheDeclarationOrder(_ relaysFirst: Bool) {
    let events = LockedBox<[String]>([])
    weak var weakLatest: Stored?
    weak var weakContainer: AnyObject?
    do {
      let latest = Stored()
      weakLatest = latest
      let container: AnyObject =
        relaysFirst
        ? Container(events: events, latest: latest)
        : ContainerWithCancellablesFirst(events: events, latest: latest)
      weakContainer = container
    }
    #expect(weakContainer == nil)
    #expect(weakLatest == nil, "withLatestFrom kept its latest value")
    #expect(events.withLock { $0 } == ["cancel"])
  }
}
