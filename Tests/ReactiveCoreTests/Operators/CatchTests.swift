import ReactiveCore
import Testing

@Suite struct CatchTests {
  @Test func catchSwitchesToTheReplacement() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, Never>()
    subject.catch { _ in [8, 9].publisher }.subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracker.values == [1, 8, 9])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Catch"))
  }

  @Test func catchCarriesDemandAcross() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
    subject.catch { _ in (10...20).publisher }.subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracker.values == [1, 10, 11])
  }

  @Test func tryCatchCanThrow() {
    let result = collectAll(
      Fail<Int, TestError>(error: .oops).tryCatch { _ -> Just<Int> in throw TestError.other })
    if case .failure(let error as TestError) = result.1.first {
      #expect(error == .other)
    } else {
      Issue.record("expected a failure")
    }
    #expect(collectAll(Fail<Int, TestError>(error: .oops).tryCatch { _ in Just(5) }).0 == [5])
  }

  // `catch`, `tryCatch` and `retry` as Combine shapes them.
  @Test func catchCarriesOutstandingDemandToTheReplacement() {
    let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let replacementSubscription = RecordingSubscription()
    let replacement = ManualPublisher<Int, TestError>(subscription: replacementSubscription)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.catch { _ in replacement }.subscribe(tracking)
    upstream.send(1)
    upstream.send(completion: .failure(.oops))
    #expect(replacementSubscription.history == [.requested(.max(2))])
    #expect(tracking.events.first == .subscription("Catch"))
  }

  @Test func theReplacementSeesTheOperatorAsItsSubscriber() {
    let replacement = ManualPublisher<Int, Never>(subscription: nil)
    _ = Fail<Int, TestError>(error: .oops).tryCatch { _ in replacement }.sink(
      receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect((replacement.rawSubscriber as? CustomStringConvertible)?.description == "TryCatch")
  }

  @Test func catchTrapsOnAValueNobodyAskedFor() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      let tracking = TrackingSubscriber<Int, TestError>(initialDemand: nil)
      upstream.catch { _ in Empty<Int, TestError>() }.subscribe(tracking)
      upstream.send(1)
    }
  }

  @Test func catchTrapsOnASecondFailure() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      let tracking = TrackingSubscriber<Int, TestError>()
      upstream.catch { _ in ManualPublisher<Int, TestError>(subscription: nil) }
        .subscribe(tracking)
      upstream.send(completion: .failure(.oops))
      upstream.send(completion: .failure(.oops))
    }
  }
}
