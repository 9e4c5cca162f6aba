import ReactiveCore
import Testing

/// Runs `publisher` to completion with unlimited demand and returns what arrived.
func collectAll<P: Publisher>(_ publisher: P) -> ([P.Output], [Subscribers.Completion<P.Failure>]) {
  var values: [P.Output] = []
  var completions: [Subscribers.Completion<P.Failure>] = []
  let cancellable = publisher.sink(
    receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
  cancellable.cancel()
  return (values, completions)
}

@Suite struct TransformingOperatorTests {
  @Test func mapCompactMapAndKeyPaths() {
    #expect(collectAll([1, 2, 3].publisher.map { $0 * 2 }).0 == [2, 4, 6])
    #expect(collectAll([1, 2, 3].publisher.map { $0 + 1 }.map { $0 * 10 }).0 == [20, 30, 40])
    #expect(collectAll(["1", "x", "3"].publisher.compactMap { Int($0) }).0 == [1, 3])
    #expect(collectAll(["a", "bc"].publisher.map(\.count)).0 == [1, 2])
    let pairs = collectAll(["ab"].publisher.map(\.count, \.first)).0
    #expect(pairs.map(\.0) == [2])
    #expect(pairs.map(\.1) == ["a"])
    let triples = collectAll(["ab"].publisher.map(\.count, \.first, \.last)).0
    #expect(triples.map(\.2) == ["b"])
    #expect(collectAll([1, nil, 3].publisher.replaceNil(with: 0)).0 == [1, 0, 3])
  }

  @Test func tryMapFailsAndCancelsUpstream() {
    var cancelled = false
    let (values, completions) = collectAll(
      [1, 2, 3].publisher
        .handleEvents(receiveCancel: { cancelled = true })
        .tryMap { value -> Int in
          if value == 2 { throw TestError.oops }
          return value
        })
    #expect(values == [1])
    #expect(completions.count == 1)
    if case .failure(let error as TestError) = completions.first {
      #expect(error == .oops)
    } else {
      Issue.record("expected a failure")
    }
    #expect(cancelled)
  }

  @Test func filterAndTryFilterAndTryCompactMap() {
    #expect(collectAll((1...6).publisher.filter { $0.isMultiple(of: 2) }).0 == [2, 4, 6])
    #expect(collectAll((1...6).publisher.filter { $0 > 1 }.filter { $0 < 4 }).0 == [2, 3])
    #expect(collectAll((1...6).publisher.tryFilter { $0 > 4 }).0 == [5, 6])
    #expect(collectAll((1...3).publisher.tryCompactMap { $0 == 2 ? nil : $0 }).0 == [1, 3])
  }

  @Test func scanAndRemoveDuplicates() {
    #expect(collectAll((1...4).publisher.scan(0, +)).0 == [1, 3, 6, 10])
    #expect(collectAll((1...4).publisher.tryScan(0, +)).0 == [1, 3, 6, 10])
    #expect(collectAll([1, 1, 2, 2, 1].publisher.removeDuplicates()).0 == [1, 2, 1])
    #expect(collectAll([1, 2, 4, 5].publisher.removeDuplicates { $1 - $0 == 1 }).0 == [1, 4])
    #expect(collectAll([1, 1, 3].publisher.tryRemoveDuplicates(by: ==)).0 == [1, 3])
  }

  @Test func scanKeepsStatePerSubscription() {
    let scan = (1...3).publisher.scan(0, +)
    #expect(collectAll(scan).0 == [1, 3, 6])
    #expect(collectAll(scan).0 == [1, 3, 6])
  }

  @Test func mapErrorAndSetFailureType() {
    let mapped = collectAll(Fail<Int, TestError>(error: .oops).mapError { _ in TestError.other })
    #expect(mapped.1 == [.failure(.other)])
    let typed = collectAll(Just(1).setFailureType(to: TestError.self))
    #expect(typed.0 == [1])
    #expect(typed.1 == [.finished])
  }
}

@Suite struct ReducingOperatorTests {
  @Test func reduceCollectAndCount() {
    #expect(collectAll((1...4).publisher.reduce(0, +)).0 == [10])
    #expect(collectAll((1...4).publisher.tryReduce(0, +)).0 == [10])
    #expect(collectAll((1...3).publisher.collect()).0 == [[1, 2, 3]])
    #expect(collectAll((1...5).publisher.collect(2)).0 == [[1, 2], [3, 4], [5]])
  }

  @Test func reduceWaitsForDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    subject.reduce(0, +).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.values.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [3])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Reduce"))
  }

  @Test func reduceForwardsFailureWithoutValue() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<[Int], TestError>()
    subject.collect().subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracker.values.isEmpty)
    #expect(tracker.completions == [.failure(.oops)])
  }

  @Test func collectByCountScalesDemand() {
    let tracker = TrackingSubscriber<[Int], Never>(initialDemand: .max(1))
    (1...7).publisher.collect(3).subscribe(tracker)
    #expect(tracker.values == [[1, 2, 3]])
    tracker.request(.max(2))
    #expect(tracker.values == [[1, 2, 3], [4, 5, 6], [7]])
    #expect(tracker.completions == [.finished])
  }

  @Test func firstAndLast() {
    var cancelled = false
    let first = collectAll(
      (1...3).publisher.handleEvents(receiveCancel: { cancelled = true }).first())
    #expect(first.0 == [1])
    #expect(first.1 == [.finished])
    #expect(cancelled)
    #expect(collectAll((1...6).publisher.first { $0 > 3 }).0 == [4])
    #expect(collectAll((1...6).publisher.tryFirst { $0 > 4 }).0 == [5])
    #expect(collectAll((1...3).publisher.last()).0 == [3])
    #expect(collectAll((1...6).publisher.last { $0 < 3 }).0 == [2])
    #expect(collectAll((1...6).publisher.tryLast { $0 < 5 }).0 == [4])
    #expect(collectAll(Empty<Int, Never>().first()).0 == [])
  }

  @Test func ignoreOutputReplaceEmptyReplaceError() {
    let ignored = collectAll((1...3).publisher.ignoreOutput())
    #expect(ignored.0.isEmpty)
    #expect(ignored.1 == [.finished])
    #expect(collectAll(Empty<Int, Never>().replaceEmpty(with: 9)).0 == [9])
    #expect(collectAll(Just(1).replaceEmpty(with: 9)).0 == [1])
    #expect(collectAll(Fail<Int, TestError>(error: .oops).replaceError(with: 0)).0 == [0])
  }

  @Test func replaceErrorWaitsForDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.replaceError(with: -1).subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracker.values == [1])
    tracker.request(.max(1))
    #expect(tracker.values == [1, -1])
    #expect(tracker.completions == [.finished])
  }
}

@Suite struct SelectingOperatorTests {
  @Test func dropAndPrefix() {
    #expect(collectAll((1...5).publisher.dropFirst()).0 == [2, 3, 4, 5])
    #expect(collectAll((1...5).publisher.dropFirst(3)).0 == [4, 5])
    #expect(collectAll([1, 2, 5, 1].publisher.drop { $0 < 3 }).0 == [5, 1])
    #expect(collectAll([1, 2, 5, 1].publisher.tryDrop { $0 < 3 }).0 == [5, 1])
    #expect(collectAll((1...9).publisher.prefix(2)).0 == [1, 2])
    #expect(collectAll([1, 2, 5, 1].publisher.prefix { $0 < 3 }).0 == [1, 2])
    #expect(collectAll([1, 2, 5, 1].publisher.tryPrefix { $0 < 3 }).0 == [1, 2])
    #expect(collectAll((0...9).publisher.output(at: 4)).0 == [4])
    #expect(collectAll((0...9).publisher.output(in: 3...5)).0 == [3, 4, 5])
    #expect(collectAll((0...9).publisher.output(in: 3..<5)).1 == [.finished])
  }

  @Test func dropFirstHonoursDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    (1...6).publisher.dropFirst(2).subscribe(tracker)
    #expect(tracker.values == [3, 4])
    #expect(tracker.completions.isEmpty)
  }

  @Test func prefixFinishesWithoutWaitingForMore() {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    subject.prefix(2).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    #expect(tracker.completions == [.finished])
    subject.send(3)
    #expect(tracker.values == [1, 2])
  }
}

@Suite struct ErrorHandlingOperatorTests {
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
}

@Suite struct DebuggingOperatorTests {
  @Test func handleEventsSeesEverything() {
    var log: [String] = []
    let cancellable = [1].publisher
      .handleEvents(
        receiveSubscription: { _ in log.append("subscription") },
        receiveOutput: { log.append("output \($0)") },
        receiveCompletion: { _ in log.append("completion") },
        receiveCancel: { log.append("cancel") },
        receiveRequest: { log.append("request \($0)") }
      )
      .sink { _ in }
    #expect(log == ["subscription", "request unlimited", "output 1", "completion"])
    cancellable.cancel()
  }

  @Test func printWritesEveryEvent() {
    final class Lines: TextOutputStream {
      var text = ""
      func write(_ string: String) { text += string }
    }
    let lines = Lines()
    let cancellable = [1].publisher.print("n", to: lines).sink { _ in }
    #expect(
      lines.text
        == "n: receive subscription: ([1])\nn: request unlimited\nn: receive value: (1)\nn: receive finished\n"
    )
    cancellable.cancel()
  }
}

@Suite struct OperatorDemandTests {
  @Test(arguments: [1, 2, 5])
  func mapFilterNeverExceedDemand(batch: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(batch))
    subject.map { $0 }.filter { _ in true }.subscribe(tracker)
    for value in 0..<20 { subject.send(value) }
    #expect(tracker.values.count == batch)
  }

  @Test func operatorsIgnoreEventsAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    subject.scan(0, +).removeDuplicates().subscribe(tracker)
    subject.send(1)
    tracker.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.values == [1])
    #expect(tracker.completions.isEmpty)
  }
}
