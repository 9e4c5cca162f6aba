import Testing

@testable import ReactiveFoundationNetworking

/// The data task subscription's machine alone, every reachable (state, event) pair,
/// without a session: the task is a number.
@Suite struct DataTaskLifecycleTests {
  typealias Machine = DataTaskLifecycle<String, String, Int>

  @Test func theFirstDemandHandsOutWhatStartsTheTaskAndLaterOnesNothing() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    #expect(machine.demandArrived() == "request")
    #expect(machine.demandArrived() == nil)
    let started = machine.taskCreated(7)
    #expect(started)
    #expect(machine.demandArrived() == nil)
  }

  @Test func aCompletedTaskHandsOutItsSubscriberOnce() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    _ = machine.demandArrived()
    _ = machine.taskCreated(7)
    #expect(machine.taskCompleted() == "downstream")
    #expect(machine.taskCompleted() == nil)
    #expect(machine.cancelled() == nil)
  }

  @Test func cancellingARunningTaskHandsOutTheTaskAndDropsItsOutcome() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    _ = machine.demandArrived()
    _ = machine.taskCreated(7)
    #expect(machine.cancelled() == 7)
    #expect(machine.taskCompleted() == nil)
    #expect(machine.cancelled() == nil)
  }

  @Test func cancellingBeforeDemandEndsWithNoTask() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    #expect(machine.cancelled() == nil)
    #expect(machine.demandArrived() == nil)
  }

  @Test func aTaskCreatedAfterACancelMustNotStart() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    _ = machine.demandArrived()
    #expect(machine.cancelled() == nil)
    let started = machine.taskCreated(7)
    #expect(!started)
    #expect(machine.taskCompleted() == nil)
  }
}
