import Dispatch
import Foundation
import ReactiveCore
import ReactiveExtras
import Testing

@Suite struct WithLatestFromTests {
  @Test func valuesBeforeTheOtherHasOneAreDropped() {
    let taps = PassthroughSubject<Int, Never>()
    let form = PassthroughSubject<String, Never>()
    let recorder = Recorder<String, Never>()
    taps.withLatestFrom(form) { "\($0)\($1)" }.subscribe(recorder)
    taps.send(1)
    form.send("a")
    taps.send(2)
    form.send("b")
    form.send("c")
    taps.send(3)
    #expect(recorder.values == ["2a", "3c"])
  }

  @Test func withoutASelectorTheOthersValueIsSent() {
    let taps = PassthroughSubject<Void, Never>()
    let form = CurrentValueSubject<Int, Never>(7)
    let recorder = Recorder<Int, Never>()
    taps.withLatestFrom(form).subscribe(recorder)
    taps.send()
    #expect(recorder.values == [7])
  }

  @Test func twoAndThreeOthers() {
    let taps = PassthroughSubject<Int, Never>()
    let (a, b, c) = (
      CurrentValueSubject<Int, Never>(1), CurrentValueSubject<Int, Never>(2),
      CurrentValueSubject<Int, Never>(3)
    )
    let two = Recorder<Int, Never>()
    let three = Recorder<Int, Never>()
    taps.withLatestFrom(a, b) { $0 + $1.0 + $1.1 }.subscribe(two)
    taps.withLatestFrom(a, b, c).map { $0 + $1 + $2 }.subscribe(three)
    taps.send(10)
    #expect(two.values == [13])
    #expect(three.values == [6])
  }

  @Test func itFinishesWithTheUpstreamAndFailsWithEither() {
    let upstream = PassthroughSubject<Int, TestError>()
    let other = PassthroughSubject<Int, TestError>()
    let finished = Recorder<Int, TestError>()
    upstream.withLatestFrom(other).subscribe(finished)
    other.send(completion: .finished)
    #expect(finished.completions.isEmpty)
    upstream.send(completion: .finished)
    #expect(finished.completions == [.finished])

    let failing = Recorder<Int, TestError>()
    let upstream2 = PassthroughSubject<Int, TestError>()
    let other2 = PassthroughSubject<Int, TestError>()
    upstream2.withLatestFrom(other2).subscribe(failing)
    other2.send(completion: .failure(.oops))
    upstream2.send(1)
    #expect(failing.completions == [.failure(.oops)])
    #expect(failing.values.isEmpty)
  }

  @Test func downstreamDemandGoesUpstreamAndDroppedValuesAreAskedAgain() {
    let upstream = RecordingSubscription()
    let publisher = PassthroughSubject<Int, Never>()
    publisher.send(subscription: upstream)
    let other = PassthroughSubject<Int, Never>()
    let recorder = Recorder<Int, Never>(initialDemand: .max(1))
    publisher.withLatestFrom(other).subscribe(recorder)
    publisher.send(1)
    other.send(5)
    publisher.send(2)
    publisher.send(3)
    #expect(recorder.values == [5])
  }

  /// CombineExt's withLatestFrom leaked its subscribers (#121): cancelling releases them.
  @Test func cancellingReleasesTheSubscriber() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Int, Never>()
    weak var weakRecorder: Recorder<Int, Never>?
    do {
      let recorder = Recorder<Int, Never>()
      weakRecorder = recorder
      upstream.withLatestFrom(other).subscribe(recorder)
      recorder.cancel()
    }
    #expect(weakRecorder == nil)
  }

  /// The other side changes on one thread while values arrive on another (#139).
  @Test func theOtherSideRacingWithValuesStress() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Int, Never>()
    let recorder = Recorder<Int, Never>()
    upstream.withLatestFrom(other) { $0 + $1 }.subscribe(recorder)
    other.send(0)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      for value in 0..<10_000 {
        if index == 0 { upstream.send(value) } else { other.send(value) }
      }
    }
    #expect(recorder.values.count == 10_000)
    recorder.cancel()
  }
  /// CombineExt subscribes the upstream once the other publisher has a value, so a cold
  /// upstream's value waits for it (CombineExt's
  /// testWithResultSelectorDoesNotRetainClassBasedPublisherWithoutSendCompletion).
  @Test func aColdUpstreamWaitsForTheOthersFirstValue() {
    weak var weakOther: PassthroughSubject<String, Never>?
    var results: [String] = []
    do {
      let other = PassthroughSubject<String, Never>()
      weakOther = other
      let subscription = Just("1").withLatestFrom(other) { "\($0)\($1)" }
        .sink { results.append($0) }
      other.send("foo")
      #expect(results == ["1foo"])
      subscription.cancel()
    }
    #expect(weakOther == nil)
  }

  @Test func aSequenceUpstreamCombinesEveryValueWithTheFirstOther() {
    let other = PassthroughSubject<Int, Never>()
    let recorder = Recorder<Int, Never>()
    [1, 2, 3].publisher.withLatestFrom(other) { $0 + $1 }.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    other.send(10)
    #expect(recorder.values == [11, 12, 13])
    #expect(recorder.isFinished)
  }

  /// CombineExt's testWithResultSelectorLimitedDemand: demand asked for before the other
  /// side has a value is kept for the values after it.
  @Test func demandAskedBeforeTheOtherHasAValueIsKept() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<String, Never>()
    let recorder = Recorder<String, Never>(initialDemand: .max(3))
    upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(recorder)
    for value in 1...3 { upstream.send(value) }
    other.send("bar")
    upstream.send(4)
    upstream.send(5)
    other.send("foo")
    upstream.send(6)
    other.send("qux")
    for value in 7...9 { upstream.send(value) }
    #expect(recorder.values == ["4bar", "5bar", "6foo"])
    other.send(completion: .finished)
    #expect(recorder.completions.isEmpty)
    upstream.send(completion: .finished)
    #expect(recorder.completions == [.finished])
  }

  /// CombineExt's testWithLatestFrom2WithResultSelector.
  @Test func twoOthersCombineOnceBothHaveAValue() {
    let upstream = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<String, Never>()
    let third = PassthroughSubject<Bool, Never>()
    let recorder = Recorder<String, Never>()
    upstream.withLatestFrom(second, third) { "\($0)|\($1.0)|\($1.1)" }.subscribe(recorder)
    for value in 1...3 { upstream.send(value) }
    second.send("bar")
    upstream.send(4)
    upstream.send(5)
    third.send(true)
    upstream.send(10)
    second.send("foo")
    upstream.send(6)
    second.send("qux")
    third.send(false)
    for value in 7...9 { upstream.send(value) }
    #expect(
      recorder.values == ["10|bar|true", "6|foo|true", "7|qux|false", "8|qux|false", "9|qux|false"])
  }

  @Test func itDescribesItsSubscriptionAsCombineExtDoes() {
    var description = ""
    let other = CurrentValueSubject<Int, Never>(1)
    PassthroughSubject<String, Never>().withLatestFrom(other) { "\($0)\($1)" }
      .subscribe(
        AnySubscriber(
          receiveSubscription: {
            description = "\($0)"
            $0.cancel()
          }, receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    #expect(description == "WithLatestFrom.Subscription<String, Never>")
  }
}

/// What a subscriber saw, in order, for checks that no value follows the completion.
private final class OrderLog: Subscriber, @unchecked Sendable {
  typealias Input = Int
  typealias Failure = TestError
  private let box = LockedBox<(events: [String], valuesAfterEnd: Int)>(([], 0))

  var valuesAfterEnd: Int { box.withLock { $0.valuesAfterEnd } }
  var completions: Int { box.withLock { $0.events.count { $0 == "end" } } }

  func receive(subscription: any Subscription) { subscription.request(.unlimited) }
  func receive(_ input: Int) -> Subscribers.Demand {
    box.withLock { log in
      if log.events.contains("end") { log.valuesAfterEnd += 1 }
      // Only whether a value came before the end matters: one entry says so.
      if log.events.isEmpty { log.events.append("value") }
    }
    return .none
  }
  func receive(completion: Subscribers.Completion<TestError>) {
    box.withLock { $0.events.append("end") }
  }
}

@Suite struct WithLatestFromOrderingTests {
  /// The other side fails on one thread while a value is being combined on another:
  /// the failure is the last thing the subscriber sees, and it sees it once. (The
  /// selector dawdles, so that the failure arrives while the value is on its way.)
  @Test func noValueFollowsTheOthersFailure() {
    let upstream = PassthroughSubject<Int, TestError>()
    let other = CurrentValueSubject<Int, TestError>(1)
    let log = OrderLog()
    let combining = DispatchSemaphore(value: 0)
    upstream.withLatestFrom(other) { value, latest in
      if value == 1 {
        combining.signal()
        usleep(50_000)
      }
      return value + latest
    }.subscribe(log)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      if index == 0 {
        upstream.send(1)
      } else {
        combining.wait()
        other.send(completion: .failure(.oops))
      }
    }
    upstream.send(2)
    #expect(log.valuesAfterEnd == 0)
    #expect(log.completions == 1)
  }

  /// A change of the other side made before a value, on the same thread, is the one the
  /// value combines with, also after many values have been combined with the old one.
  @Test func aValueSeesTheOthersChangeMadeBeforeIt() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = CurrentValueSubject<Int, Never>(0)
    let recorder = Recorder<Int, Never>()
    upstream.withLatestFrom(other) { $1 }.subscribe(recorder)
    var expected: [Int] = []
    for round in 1...100 {
      for _ in 0..<round % 3 {
        upstream.send(0)
        expected.append(round - 1)
      }
      other.send(round)
    }
    upstream.send(0)
    expected.append(100)
    #expect(recorder.values == expected)
    recorder.cancel()
  }

  /// Values sent after a cancel made from inside a delivery reach nobody.
  @Test func aCancelFromInsideADeliveryStopsLaterValues() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = CurrentValueSubject<Int, Never>(0)
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = upstream.withLatestFrom(other) { $0 + $1 }.sink { value in
      received.append(value)
      if value == 2 {
        cancellable?.cancel()
        upstream.send(99)
      }
    }
    for value in 1...4 { upstream.send(value) }
    #expect(received == [1, 2])
    _ = cancellable
  }
}
