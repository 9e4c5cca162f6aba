import Testing

@testable import ReactiveCore

/// The decisions of ``BufferStateMachine`` on their own: what a full buffer keeps, and
/// when values and completions are due.
@Suite struct BufferStateMachineTests {
  /// A buffer of `size` values subscribed to `upstream`.
  private static func subscribed(
    size: Int, to upstream: RecordingSubscription = RecordingSubscription()
  ) -> BufferStateMachine<Int, TestError> {
    var machine = BufferStateMachine<Int, TestError>(size: size)
    machine.status = .subscribed(upstream)
    return machine
  }

  @Test func aFullBufferDropsTheOldestOrTheNewest() {
    var oldest = Self.subscribed(size: 2)
    var newest = Self.subscribed(size: 2)
    for value in 1...3 {
      _ = oldest.valueArrived(value, whenFull: .dropOldest)
      _ = newest.valueArrived(value, whenFull: .dropNewest)
    }
    #expect(oldest.values == [2, 3] && newest.values == [1, 2])
  }

  @Test func aFullBufferWithACustomErrorMakesItAtOnceAndHandsOutUpstream() {
    let upstream = RecordingSubscription()
    var machine = Self.subscribed(size: 1, to: upstream)
    _ = machine.valueArrived(1, whenFull: .customError { .oops })
    var made = 0
    guard
      case .overflow(let cancelling) = machine.valueArrived(
        2,
        whenFull: .customError {
          made += 1
          return .oops
        })
    else {
      Issue.record("a full buffer with a custom error overflows")
      return
    }
    #expect(made == 1)
    #expect(ObjectIdentifier(cancelling as AnyObject) == ObjectIdentifier(upstream))
    // The failure does not wait for demand, and goes ahead of the buffered value.
    guard case .complete = machine.nextDelivery(), case .failure(.oops) = machine.terminal else {
      Issue.record("the custom error goes out without demand")
      return
    }
    guard case .drop = machine.valueArrived(3, whenFull: .dropNewest) else {
      Issue.record("nothing counts after the failure")
      return
    }
  }

  @Test func aFinishWaitsForTheBufferedValuesToBeAskedFor() {
    var machine = Self.subscribed(size: 4)
    _ = machine.valueArrived(1, whenFull: .dropNewest)
    guard case .deliver = machine.completed(.finished) else {
      Issue.record("the first completion is recorded")
      return
    }
    guard case .idle = machine.nextDelivery() else {
      Issue.record("without demand, a finish waits")
      return
    }
    guard case .deliver = machine.demandRequested(.max(1)),
      case .values([1]) = machine.nextDelivery()
    else {
      Issue.record("demand delivers the buffered value first")
      return
    }
    // A request from inside the delivery only adds demand for the running loop.
    guard case .addedToRunningDelivery = machine.demandRequested(.max(1)) else {
      Issue.record("a request during a delivery joins it")
      return
    }
    guard case .complete = machine.batchDelivered(returning: .none),
      case .finished = machine.terminal
    else {
      Issue.record("the finish follows the last value")
      return
    }
  }
}
