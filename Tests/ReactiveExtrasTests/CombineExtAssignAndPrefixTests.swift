import ReactiveCore
import ReactiveExtras
import Testing

@Suite struct CombineExtAssignAndPrefixTests {
  final class Target {
    var value = 0
    var text = ""
  }

  @Test(arguments: [ObjectOwnership.strong, .weak, .unowned])
  func assignWithOwnership(ownership: ObjectOwnership) {
    let subject = PassthroughSubject<Int, Never>()
    let target = Target()
    let other = Target()
    let third = Target()
    let one = subject.assign(to: \.value, on: target, ownership: ownership)
    let two = subject.map { $0 * 2 }.assign(
      to: \.value, on: other, and: \.value, on: third, ownership: ownership)
    subject.send(4)
    #expect(target.value == 4)
    #expect(other.value == 8)
    #expect(third.value == 8)
    one.cancel()
    two.cancel()
  }

  @Test func assignWeaklyDoesNotKeepTheObject() {
    let subject = PassthroughSubject<Int, Never>()
    weak var released: Target?
    var cancellable: AnyCancellable?
    do {
      let target = Target()
      released = target
      cancellable = subject.assign(to: \.value, on: target, ownership: .weak)
    }
    #expect(released == nil)
    subject.send(1)  // dropped, no crash
    cancellable?.cancel()
  }

  @Test func assignToThreeObjects() {
    let subject = PassthroughSubject<String, Never>()
    let (a, b, c) = (Target(), Target(), Target())
    let cancellable = subject.assign(to: \.text, on: a, and: \.text, on: b, and: \.text, on: c)
    subject.send("x")
    #expect([a.text, b.text, c.text] == ["x", "x", "x"])
    cancellable.cancel()
  }

  @Test func prefixWhileInclusiveEndsRightAfterTheFirstFailingValue() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    var finished = false
    let cancellable = subject.prefix(while: { $0 < 3 }, behavior: .inclusive)
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0) })
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(values == [1, 2, 3])
    #expect(finished)
    subject.send(1)
    #expect(values == [1, 2, 3])
    cancellable.cancel()
    var exclusive: [Int] = []
    _ = [1, 2, 3, 1].publisher.prefix(while: { $0 < 3 }, behavior: .exclusive)
      .sink { exclusive.append($0) }
    #expect(exclusive == [1, 2])
  }

  @Test func prefixDurationFinishesAtTheDeadline() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    var finished = false
    let cancellable = subject.prefix(duration: .seconds(2), on: scheduler)
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0) })
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    subject.send(3)
    #expect(values == [1, 2])
    #expect(finished)
    #expect(scheduler.pendingCount == 0)
    cancellable.cancel()
  }

  @Test func flatMapBatchesRunsOneBatchAtATime() {
    let subjects = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
    var batches: [[Int]] = []
    let cancellable = subjects.flatMapBatches(of: 2).sink { batches.append($0) }
    subjects[2].send(99)  // the second batch has not started
    subjects[0].send(0)
    subjects[1].send(1)
    #expect(batches == [[0, 1]])
    subjects[0].send(completion: .finished)
    subjects[1].send(completion: .finished)
    subjects[2].send(2)
    subjects[3].send(3)
    #expect(batches == [[0, 1], [2, 3]])
    cancellable.cancel()
  }
}
