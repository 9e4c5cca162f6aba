import Foundation
import ReactiveCore
import Testing

@Suite struct RetryTests {
  @Test func retryResubscribesUntilItSucceeds() {
    var attempts = 0
    let flaky = Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      return attempts < 3
        ? Fail(error: TestError.oops).eraseToAnyPublisher()
        : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
    }
    let result = collectAll(flaky.retry(5))
    #expect(result.0 == [3])
    #expect(result.1 == [.finished])
    #expect(attempts == 3)
  }

  @Test func retryGivesUpAfterTheLimit() {
    var attempts = 0
    let failing = Deferred { () -> Fail<Int, TestError> in
      attempts += 1
      return Fail(error: .oops)
    }
    let result = collectAll(failing.retry(2))
    #expect(result.1 == [.failure(.oops)])
    #expect(attempts == 3)
  }
}

@Suite struct CodingOperatorTests {
  struct Point: Codable, Equatable {
    var x: Int
  }

  @Test func encodeThenDecodeRoundTrips() {
    let result = collectAll(
      Just(Point(x: 4)).encode(encoder: JSONEncoder()).decode(
        type: Point.self, decoder: JSONDecoder()))
    #expect(result.0 == [Point(x: 4)])
  }

  @Test func decodingGarbageFails() {
    let result = collectAll(
      Just(Data("nope".utf8)).decode(type: Point.self, decoder: JSONDecoder()))
    #expect(result.0.isEmpty)
    if case .failure = result.1.first {} else { Issue.record("expected a failure") }
  }
}

@Suite struct UntilOutputTests {
  @Test func dropUntilOutputFrom() {
    let values = PassthroughSubject<Int, Never>()
    let start = PassthroughSubject<Void, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    values.drop(untilOutputFrom: start).subscribe(tracker)
    values.send(1)
    start.send()
    values.send(2)
    #expect(tracker.values == [2])
    // As in Combine, the fired trigger keeps the operator until it completes.
    start.send(completion: .finished)
  }

  @Test func prefixUntilOutputFrom() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    values.prefix(untilOutputFrom: stop).subscribe(tracker)
    values.send(1)
    stop.send()
    values.send(2)
    #expect(tracker.values == [1])
    #expect(tracker.completions == [.finished])
    // As in Combine, the fired trigger keeps the operator until it completes.
    stop.send(completion: .finished)
  }

  @Test func cancellingReleasesTheTrigger() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    var triggerCancelled = false
    let cancellable = values.prefix(
      untilOutputFrom: stop.handleEvents(receiveCancel: { triggerCancelled = true })
    )
    .sink { _ in }
    cancellable.cancel()
    #expect(triggerCancelled)
  }
}

@Suite struct BreakpointTests {
  @Test func breakpointPassesEverythingThroughWhenClosuresSayNo() {
    let result = collectAll([1, 2].publisher.breakpoint(receiveOutput: { _ in false }))
    #expect(result.0 == [1, 2])
    #expect(collectAll([1].publisher.breakpointOnError()).1 == [.finished])
  }
}
