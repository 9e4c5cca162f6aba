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
    #expect(machine.taskCompleted().delivering == "downstream")
    let again = machine.taskCompleted()
    #expect(again.delivering == nil && again.cancelling == nil)
    #expect(machine.cancelled() == nil)
    #expect(machine.taskCompleted().cancelling == nil)
  }

  /// The task's report is dropped, and names the task being cancelled, however often it
  /// comes: the subscription waits, on Linux, for that task's cancel to finish first.
  @Test func cancellingARunningTaskHandsOutTheTaskAndDropsItsOutcome() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    _ = machine.demandArrived()
    _ = machine.taskCreated(7)
    #expect(machine.cancelled() == 7)
    for _ in 0..<2 {
      let report = machine.taskCompleted()
      #expect(report.delivering == nil && report.cancelling == 7)
    }
    #expect(machine.cancelled() == nil)
    #expect(machine.demandArrived() == nil)
  }

  @Test func cancellingBeforeDemandEndsWithNoTask() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    #expect(machine.cancelled() == nil)
    #expect(machine.demandArrived() == nil)
    #expect(machine.cancelled() == nil)
  }

  @Test func aTaskCreatedAfterACancelMustNotStart() {
    var machine = Machine.awaitingDemand("downstream", start: "request")
    _ = machine.demandArrived()
    #expect(machine.cancelled() == nil)
    let started = machine.taskCreated(7)
    #expect(!started)
    let report = machine.taskCompleted()
    #expect(report.delivering == nil && report.cancelling == 7)
    #expect(machine.cancelled() == nil)
  }
}

extension DataTaskLifecycle.Report {
  /// The subscriber to deliver to, if any.
  var delivering: Downstream? {
    if case .deliver(let downstream) = self { return downstream }
    return nil
  }

  /// The task being cancelled, if the report is dropped because of it.
  var cancelling: Task? {
    if case .drop(let task) = self { return task }
    return nil
  }
}
