import ReactiveCore
import ReactiveExtras
import Testing

@Suite struct FlatMapLatestFirstTests {
  @Test func flatMapLatestFollowsOnlyTheNewestInner() {
    let outer = PassthroughSubject<Int, Never>()
    let inners = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
    let recorder = Recorder<String, Never>()
    outer.flatMapLatest { inners[$0] }.subscribe(recorder)
    outer.send(0)
    inners[0].send("a")
    outer.send(1)
    inners[0].send("ignored")
    inners[1].send("b")
    #expect(recorder.values == ["a", "b"])
  }

  @Test func flatMapFirstIgnoresValuesWhileAnInnerRuns() {
    let outer = PassthroughSubject<Int, Never>()
    let inner = PassthroughSubject<Int, Never>()
    var made: [Int] = []
    let recorder = Recorder<Int, Never>()
    outer.flatMapFirst { value -> PassthroughSubject<Int, Never> in
      made.append(value)
      return inner
    }.subscribe(recorder)
    outer.send(1)
    outer.send(2)
    inner.send(10)
    inner.send(completion: .finished)
    outer.send(3)
    #expect(made == [1, 3])
    #expect(recorder.values == [10])
  }

  @Test func eachSubscriptionOfFlatMapFirstHasItsOwnState() {
    let outer = PassthroughSubject<Int, Never>()
    let busy = PassthroughSubject<Int, Never>()
    let shared = outer.flatMapFirst { _ in busy }
    let first = Recorder<Int, Never>()
    shared.subscribe(first)
    outer.send(1)
    let second = Recorder<Int, Never>()
    shared.subscribe(second)
    outer.send(2)
    busy.send(5)
    #expect(first.values == [5])
    #expect(second.values == [5])
  }
}

@Suite struct CreateTests {
  @Test func valuesWaitForDemandAndTheCleanupRunsOnCompletion() {
    let cleanedUp = LockedBox(0)
    let publisher = AnyPublisher<Int, TestError>.create { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      subscriber.send(completion: .failure(.oops))
      return AnyCancellable { cleanedUp.withLock { $0 += 1 } }
    }
    let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
    publisher.subscribe(recorder)
    #expect(recorder.values == [1])
    #expect(recorder.completions.isEmpty)
    #expect(cleanedUp.withLock { $0 } == 1)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.completions == [.failure(.oops)])
  }

  @Test func cancellingRunsTheCleanupAndLaterEventsAreIgnored() {
    let cleanedUp = LockedBox(false)
    let handle = LockedBox<Publishers.Create<Int, Never>.Subscriber?>(nil)
    let recorder = Recorder<Int, Never>()
    AnyPublisher<Int, Never> { subscriber in
      handle.withLock { $0 = subscriber }
      return AnyCancellable { cleanedUp.withLock { $0 = true } }
    }.subscribe(recorder)
    handle.withLock { $0 }?.send(1)
    recorder.cancel()
    handle.withLock { $0 }?.send(2)
    #expect(recorder.values == [1])
    #expect(cleanedUp.withLock { $0 })
  }

  @Test func aCancelledSubscriberIsReleasedEvenIfTheFactoryKeepsTheHandle() {
    let handle = LockedBox<Publishers.Create<Int, Never>.Subscriber?>(nil)
    weak var weakRecorder: Recorder<Int, Never>?
    do {
      let recorder = Recorder<Int, Never>()
      weakRecorder = recorder
      AnyPublisher<Int, Never>.create { subscriber in
        handle.withLock { $0 = subscriber }
        return AnyCancellable {}
      }.subscribe(recorder)
      recorder.cancel()
    }
    #expect(weakRecorder == nil)
  }
}

@Suite struct CollectionOperatorTests {
  @Test func mergeCombineLatestAndZip() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let merged = Recorder<Int, Never>()
    let latest = Recorder<[Int], Never>()
    let zipped = Recorder<[Int], Never>()
    [a, b].merge().subscribe(merged)
    [a, b].combineLatest().subscribe(latest)
    [a, b].zip().subscribe(zipped)
    a.send(1)
    a.send(2)
    b.send(10)
    b.send(20)
    #expect(merged.values == [1, 2, 10, 20])
    #expect(latest.values == [[2, 10], [2, 20]])
    #expect(zipped.values == [[1, 10], [2, 20]])
  }

  @Test func emptyCollectionsFinishAtOnce() {
    let none: [PassthroughSubject<Int, Never>] = []
    let latest = Recorder<[Int], Never>()
    let zipped = Recorder<[Int], Never>()
    none.combineLatest().subscribe(latest)
    none.zip().subscribe(zipped)
    #expect(latest.isFinished && zipped.isFinished)
  }
}

@Suite struct AmbTests {
  @Test func theFirstToSendWinsAndTheOtherIsCancelled() {
    let loserSubscription = RecordingSubscription()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    second.send(subscription: loserSubscription)
    let recorder = Recorder<Int, Never>()
    first.amb(second).subscribe(recorder)
    first.send(1)
    second.send(2)
    first.send(3)
    #expect(recorder.values == [1, 3])
  }

  @Test func aCompletionWinsTooAndCollectionsRace() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let c = PassthroughSubject<Int, Never>()
    let recorder = Recorder<Int, Never>()
    [a, b, c].amb().subscribe(recorder)
    c.send(completion: .finished)
    a.send(1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.isFinished)
  }

  @Test func demandReachesBothUntilTheRaceIsDecided() {
    let recorder = Recorder<Int, Never>(initialDemand: .max(2))
    let x = RecordingSubscription()
    let y = RecordingSubscription()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    first.send(subscription: x)
    second.send(subscription: y)
    first.amb(second).subscribe(recorder)
    second.send(7)
    first.send(8)
    #expect(recorder.values == [7])
  }
}

@Suite struct NwiseTests {
  @Test func slidingWindowsAndPairs() {
    let windows = Recorder<[Int], Never>()
    let pairs = Recorder<String, Never>()
    (1...5).publisher.nwise(3).subscribe(windows)
    (1...4).publisher.pairwise().map { "\($0)\($1)" }.subscribe(pairs)
    #expect(windows.values == [[1, 2, 3], [2, 3, 4], [3, 4, 5]])
    #expect(pairs.values == ["12", "23", "34"])
  }
}

@Suite struct RetryWhenTests {
  @Test func itResubscribesWhenTheTriggerSendsAndFinishesWithIt() {
    let attempts = LockedBox(0)
    let flaky = Deferred {
      attempts.withLock { count -> AnyPublisher<Int, TestError> in
        count += 1
        return count < 3
          ? Fail(error: TestError.oops).eraseToAnyPublisher()
          : Just(count).setFailureType(to: TestError.self).eraseToAnyPublisher()
      }
    }
    let recorder = Recorder<Int, TestError>()
    flaky.retryWhen { failures in failures.prefix(5) }.subscribe(recorder)
    #expect(recorder.values == [3])
    #expect(recorder.completions == [.finished])
  }

  @Test func aTriggerThatFinishesEndsTheStream() {
    let recorder = Recorder<Int, TestError>()
    Fail<Int, TestError>(error: .oops).retry(when: { $0.prefix(2) }).subscribe(recorder)
    #expect(recorder.completions == [.finished])
  }

  @Test func aTriggerFailureOfTheSameTypeFailsTheStream() {
    let recorder = Recorder<Int, TestError>()
    Fail<Int, TestError>(error: .oops)
      .retryWhen { failures in
        failures.setFailureType(to: TestError.self).tryMap { _ in throw TestError.again }.mapError {
          $0 as! TestError
        }
      }
      .subscribe(recorder)
    #expect(recorder.completions == [.failure(.again)])
  }
}
