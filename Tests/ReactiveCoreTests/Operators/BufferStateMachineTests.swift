import Testing

@testable import ReactiveCore

/// The decisions of ``BufferStateMachine`` on their own: what a full buffer keeps, and
/// when values and completions are due.
@Suite struct BufferStateMachineTests {
  /// A buffer of `size` values subscribed to `upstream`.
  private static func subscribed(
    size: Int, to upstream: RecordingSubscription = RecordingSubscription()
  ) -> Lifecycle<BufferStateMachine<Int, TestError>> {
    var machine = Lifecycle(BufferStateMachine<Int, TestError>(size: size))
    _ = machine.adopt(upstream)
    return machine
  }

  @Test func aFullBufferDropsTheOldestOrTheNewest() {
    var oldest = Self.subscribed(size: 2)
    var newest = Self.subscribed(size: 2)
    for value in 1...3 {
      _ = oldest.valueArrived(value, whenFull: .dropOldest)
      _ = newest.valueArrived(value, whenFull: .dropNewest)
    }
    #expect(oldest.machine.values == [2, 3] && newest.machine.values == [1, 2])
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
    guard case .complete = machine.nextDelivery(), case .failure(.oops) = machine.machine.terminal
    else {
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
      case .finished = machine.machine.terminal
    else {
      Issue.record("the finish follows the last value")
      return
    }
  }
}

/// ``BufferStateMachine``: every event in every state.
@Suite struct BufferStateMachineTableTests {
  typealias Machine = Lifecycle<BufferStateMachine<Int, TestError>>

  enum State: String, CaseIterable, Sendable {
    case awaitingSubscription, open, finished, failed, terminal
  }

  enum Event: String, CaseIterable, Sendable {
    case value, finish, request, nextDelivery
  }

  /// A buffer of two in `state`, holding the value 1 once subscribed, with no demand.
  static func machine(in state: State) -> Machine {
    var machine = Machine(BufferStateMachine(size: 2))
    guard state != .awaitingSubscription else { return machine }
    _ = machine.adopt(RecordingSubscription())
    _ = machine.valueArrived(1, whenFull: .dropNewest)
    switch state {
    case .awaitingSubscription, .open: break
    case .finished: _ = machine.completed(.finished)
    case .failed: _ = machine.completed(.failure(.oops))
    case .terminal:
      _ = machine.completed(.failure(.oops))
      _ = machine.nextDelivery()  // a failure is due at once: the buffer ends
    }
    return machine
  }

  static func outcome(_ state: State, _ event: Event) -> String {
    switch (state, event) {
    case (.open, .value), (.finished, .value): "hold [1, 2]"
    case (_, .value): "drop"
    case (.open, .finish): "deliver"
    case (_, .finish): "ignore"
    case (.open, .request), (.finished, .request), (.failed, .request): "deliver"
    case (_, .request): "ignore"
    case (.open, .nextDelivery), (.finished, .nextDelivery): "idle"
    case (.failed, .nextDelivery): "complete"
    case (_, .nextDelivery): "idle"
    }
  }

  @Test(arguments: State.allCases, Event.allCases)
  func bufferAnswersEveryEventInEveryState(_ state: State, _ event: Event) {
    var machine = Self.machine(in: state)
    let outcome: String
    switch event {
    case .value:
      switch machine.valueArrived(2, whenFull: .dropNewest) {
      case .drop: outcome = "drop"
      case .deliver: outcome = "hold \(machine.machine.values)"
      case .overflow: outcome = "overflow"
      }
    case .finish:
      switch machine.completed(.finished) {
      case .ignore: outcome = "ignore"
      case .deliver: outcome = "deliver"
      }
    case .request:
      switch machine.demandRequested(.max(1)) {
      case .ignore: outcome = "ignore"
      case .addedToRunningDelivery: outcome = "added"
      case .deliver: outcome = "deliver"
      }
    case .nextDelivery:
      switch machine.nextDelivery() {
      case .idle: outcome = "idle"
      case .complete: outcome = "complete"
      case .values(let values): outcome = "values \(values)"
      }
    }
    #expect(outcome == Self.outcome(state, event), "\(state) + \(event)")
  }
}
