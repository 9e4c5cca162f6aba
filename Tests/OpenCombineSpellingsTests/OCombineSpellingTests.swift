import Dispatch
import Foundation
import OpenCombineSpellings
import ReactiveCore
import Testing

/// OpenCombine's `.OCombine` spellings are second names for what ReactiveCore has: the
/// same types where OpenCombine's are publishers, and schedulers that forward to the
/// wrapped one, sharing its time type. Waits have generous timeouts, only as hang guards.
@Suite struct OCombineSpellingTests {
  @Test func resultsPublisherIsReactiveCoresUnderASecondName() {
    let result = Result<Int, Never>.success(3)
    let publisher: Result<Int, Never>.Publisher = result.ocombine.publisher
    #expect(Result<Int, Never>.OCombine.Publisher.self == Result<Int, Never>.Publisher.self)
    #expect(publisher == result.publisher)
    var received: [Int] = []
    _ = publisher.sink { received.append($0) }
    #expect(received == [3])
  }

  @Test func aFailedResultsPublisherFails() {
    struct Failure: Error, Equatable {}
    let publisher = Result<Int, Failure>.OCombine.Publisher(Failure())
    var completion: Subscribers.Completion<Failure>?
    _ = publisher.sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
    #expect(completion == .failure(Failure()))
  }

  @Test func optionalsPublisherIsReactiveCoresUnderASecondName() {
    #expect(Optional<Int>.OCombine.Publisher.self == Optional<Int>.Publisher.self)
    var received: [String] = []
    _ = Optional("ripple").ocombine.publisher.sink { received.append($0) }
    _ = String?.none.ocombine.publisher.sink { received.append($0) }
    #expect(received == ["ripple"])
  }

  @Test func theSchedulerWrappersShareTheWrappedSchedulersTypes() {
    #expect(DispatchQueue.OCombine.SchedulerTimeType.self == DispatchQueue.SchedulerTimeType.self)
    #expect(DispatchQueue.OCombine.SchedulerOptions.self == DispatchQueue.SchedulerOptions.self)
    #expect(RunLoop.OCombine.SchedulerTimeType.self == RunLoop.SchedulerTimeType.self)
    #expect(
      OperationQueue.OCombine.SchedulerTimeType.self == OperationQueue.SchedulerTimeType.self)
    let queue = DispatchQueue(label: "wrapped")
    #expect(queue.ocombine.queue === queue)
    #expect(DispatchQueue.OCombine(queue).queue === queue)
    #expect(RunLoop.main.ocombine.runLoop === RunLoop.main)
    let operationQueue = OperationQueue()
    #expect(operationQueue.ocombine.queue === operationQueue)
  }

  @Test func dispatchQueueOCombineDeliversOnTheQueue() {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "delivery")
    queue.setSpecific(key: key, value: "delivery")
    let delivered = DispatchSemaphore(value: 0)
    let onQueue = LockedFlag()
    let cancellable = Just(1).receive(on: DispatchQueue.OCombine(queue)).sink { _ in
      onQueue.set(DispatchQueue.getSpecific(key: key) == "delivery")
      delivered.signal()
    }
    #expect(delivered.wait(timeout: .now() + 60) == .success)
    #expect(onQueue.value)
    cancellable.cancel()
  }

  @Test func dispatchQueueOCombineRunsDelayedAndRepeatingActions() {
    let scheduler = DispatchQueue(label: "timers").ocombine
    let ran = DispatchSemaphore(value: 0)
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1))) { ran.signal() }
    #expect(ran.wait(timeout: .now() + 60) == .success)
    let ticks = DispatchSemaphore(value: 0)
    let repeating = scheduler.schedule(
      after: scheduler.now, interval: .milliseconds(1), tolerance: scheduler.minimumTolerance,
      options: nil
    ) { ticks.signal() }
    #expect(ticks.wait(timeout: .now() + 60) == .success)
    #expect(ticks.wait(timeout: .now() + 60) == .success)
    repeating.cancel()
  }

  @Test func operationQueueOCombineDeliversOnTheQueue() {
    let queue = OperationQueue()
    let received = LockedFlag()
    let cancellable = Just(4).receive(on: OperationQueue.OCombine(queue)).sink { _ in
      received.set(OperationQueue.current === queue)
    }
    queue.waitUntilAllOperationsAreFinished()
    #expect(received.value)
    cancellable.cancel()
  }

  @Test func runLoopOCombineRunsOnTheRunLoop() {
    let scheduler = RunLoop.current.ocombine
    var ran = false
    scheduler.schedule { ran = true }
    let giveUp = Date().addingTimeInterval(60)
    while !ran && Date() < giveUp { RunLoop.current.run(until: Date().addingTimeInterval(0.01)) }
    #expect(ran)
  }
}

/// A flag set on one thread and read on another.
final class LockedFlag: Sendable {
  private let box = LockedBox(false)
  var value: Bool { box.withLock { $0 } }
  func set(_ newValue: Bool) { box.withLock { $0 = newValue } }
}
