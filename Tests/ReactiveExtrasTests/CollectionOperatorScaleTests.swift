import ModelTesting
import ReactiveCore
import ReactiveExtras
import Testing

/// `combineLatest()`, `zip()` and `merge()` over a collection are single n-ary operators:
/// they keep their semantics at any size and need no stack depth that grows with it.
@Suite struct CollectionOperatorScaleTests {
  /// A recorder that is not `Sendable`-checked, for the small-stack thread.
  final class Recorder: @unchecked Sendable {
    var values: [[Int]] = []
    var finished = false
  }

  @Test func combineLatestOverManyUpstreamsSendsEveryLatestArrayInOrder() {
    let subjects = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = Recorder()
    let cancellable = subjects.combineLatest().sink(
      receiveCompletion: { _ in recorder.finished = true },
      receiveValue: { recorder.values.append($0) })
    for (index, subject) in subjects.enumerated() { subject.send(index * 10) }
    subjects[3].send(31)
    subjects[0].send(1)
    #expect(recorder.values == [[0, 10, 20, 30, 40], [0, 10, 20, 31, 40], [1, 10, 20, 31, 40]])
    for subject in subjects.dropLast() { subject.send(completion: .finished) }
    #expect(!recorder.finished)
    subjects[4].send(completion: .finished)
    #expect(recorder.finished)
    _ = cancellable
  }

  @Test func zipOverManyUpstreamsPairsValuesInOrderAndFinishesWhenOneRunsOut() {
    let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = Recorder()
    let cancellable = subjects.zip().sink(
      receiveCompletion: { _ in recorder.finished = true },
      receiveValue: { recorder.values.append($0) })
    for round in 0..<3 {
      for (index, subject) in subjects.enumerated().reversed() { subject.send(round * 10 + index) }
    }
    #expect(recorder.values == [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]])
    subjects[2].send(32)
    subjects[2].send(completion: .finished)
    #expect(!recorder.finished)  // 32 can still be paired
    for index in [0, 1, 3] { subjects[index].send(30 + index) }
    #expect(recorder.values.last == [30, 31, 32, 33])
    #expect(recorder.finished)
    _ = cancellable
  }

  @Test func zipHonoursDemandAcrossManyUpstreams() {
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    var received: [[Int]] = []
    var subscription: (any Subscription)?
    subjects.zip().subscribe(
      AnySubscriber(
        receiveSubscription: { subscription = $0 },
        receiveValue: {
          received.append($0)
          return .none
        },
        receiveCompletion: { _ in }))
    subscription?.request(.max(1))
    for subject in subjects { subject.send(1) }
    // As Combine's zip: the demand went to every upstream, each subject spent it on its
    // first value and drops the second.
    for subject in subjects { subject.send(2) }
    #expect(received == [[1, 1, 1]])
    subscription?.request(.max(1))
    for subject in subjects { subject.send(3) }
    #expect(received == [[1, 1, 1], [3, 3, 3]])
    // The subscriber holds its subscription, which holds the subscriber (zip keeps it
    // after a cancel, as Combine's does): let go of it to end the cycle.
    subscription?.cancel()
    subscription = nil
  }

  @Test func emptyCollectionsFinishAtOnce() {
    let recorder = Recorder()
    let none: [Just<Int>] = []
    _ = none.combineLatest().sink(
      receiveCompletion: { _ in recorder.finished = true },
      receiveValue: { recorder.values.append($0) })
    #expect(recorder.finished)
    recorder.finished = false
    _ = none.zip().sink(
      receiveCompletion: { _ in recorder.finished = true },
      receiveValue: { recorder.values.append($0) })
    #expect(recorder.finished)
    #expect(recorder.values.isEmpty)
  }

  /// 100,000 upstreams on a 512 KiB stack: a fold of binary operators would nest 100,000
  /// subscriptions deep and overflow long before.
  @Test func aHundredThousandUpstreamsNeedNoDeepStack() {
    let count = 100_000
    let recorder = Recorder()
    onThread {
      let justs = (0..<count).map { Just($0) }
      _ = justs.combineLatest().sink(
        receiveCompletion: { _ in recorder.finished = true },
        receiveValue: { recorder.values.append([$0.count, $0.first!, $0.last!]) })
      _ = justs.zip().sink { recorder.values.append([$0.count, $0.first!, $0.last!]) }
      var merged = 0
      _ = justs.merge().sink { _ in merged += 1 }
      recorder.values.append([merged])
    }
    #expect(recorder.values == [[count, 0, count - 1], [count, 0, count - 1], [count]])
    #expect(recorder.finished)
  }
}
