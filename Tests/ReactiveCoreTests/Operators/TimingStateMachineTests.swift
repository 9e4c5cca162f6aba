import Testing

@testable import ReactiveCore

/// `debounce`'s and `timeout`'s machines on their own: every event in every state, and a
/// stop for each event that cannot happen in a state.
@Suite struct TimingStateMachineTests {
  /// A timer that records its cancellation.
  final class FakeTimer: Cancellable, @unchecked Sendable {
    var cancelled = false
    func cancel() { cancelled = true }
  }

  /// Whether `cancellable` is `timer` (both absent counts).
  static func isTimer(_ cancellable: (any Cancellable)?, _ timer: FakeTimer?) -> Bool {
    guard let cancellable else { return timer == nil }
    return (cancellable as? FakeTimer) === timer
  }

  // MARK: debounce

  enum DebounceState: String, CaseIterable, Sendable {
    case fresh, due, idleAfterDelivery, ended
  }

  enum DebounceEvent: String, CaseIterable, Sendable {
    case value, timerScheduled, timerFired, staleTimerFired, demand, cancel
  }

  /// The machine in `state`, with its current timer generation and that timer.
  static func debounce(in state: DebounceState) -> (
    DebounceStateMachine<Int>, generation: Int, timer: FakeTimer?
  ) {
    var machine = DebounceStateMachine<Int>()
    switch state {
    case .fresh:
      return (machine, 0, nil)
    case .due, .idleAfterDelivery:
      guard case .startTimer(let generation, nil) = machine.valueArrived(1) else {
        fatalError("a first value starts a timer")
      }
      let timer = FakeTimer()
      machine.timerScheduled(timer, generation: generation).run()
      guard state == .idleAfterDelivery else { return (machine, generation, timer) }
      machine.demandAdded(.max(1))
      _ = machine.timerFired(generation: generation)
      return (machine, generation, nil)
    case .ended:
      _ = machine.cancelled()
      return (machine, 0, nil)
    }
  }

  /// What `event` does in `state`, in words; `nil` for a pair that stops the program.
  static func debounceOutcome(_ state: DebounceState, _ event: DebounceEvent) -> String? {
    switch (state, event) {
    case (.fresh, .value): "start timer 1, release nothing"
    case (.due, .value), (.idleAfterDelivery, .value): "start timer 2, release 1"
    case (.ended, .value): nil
    case (.due, .timerScheduled): "keep the new timer, cancel the replaced one"
    case (.fresh, .timerScheduled), (.idleAfterDelivery, .timerScheduled),
      (.ended, .timerScheduled):
      "cancel the new timer"
    case (.due, .timerFired): "drop 1 (no demand), stop the timer"
    case (.fresh, .timerFired), (.idleAfterDelivery, .timerFired): "ignore"
    case (.ended, .timerFired), (.ended, .staleTimerFired): nil
    case (_, .staleTimerFired): "ignore"
    case (_, .demand): "demand 0 → 2"
    case (.due, .cancel): "end, cancel the timer"
    case (.fresh, .cancel), (.idleAfterDelivery, .cancel): "end, no timer"
    case (.ended, .cancel): nil
    }
  }

  @Test(arguments: DebounceState.allCases, DebounceEvent.allCases)
  func debounceAnswersEveryEventInEveryState(_ state: DebounceState, _ event: DebounceEvent) {
    guard let expected = Self.debounceOutcome(state, event) else { return }
    var (machine, generation, timer) = Self.debounce(in: state)
    let outcome: String
    switch event {
    case .value:
      guard case .startTimer(let next, let replaced) = machine.valueArrived(2) else {
        Issue.record("a value always starts a timer")
        return
      }
      outcome = "start timer \(next), release \(replaced.map(String.init) ?? "nothing")"
    case .timerScheduled:
      let new = FakeTimer()
      machine.timerScheduled(new, generation: generation).run()
      outcome =
        new.cancelled
        ? "cancel the new timer"
        : "keep the new timer, \(timer?.cancelled == true ? "cancel" : "keep") the replaced one"
    case .timerFired, .staleTimerFired:
      let firing = event == .timerFired ? generation : generation - 1
      switch machine.timerFired(generation: firing) {
      case .ignore: outcome = "ignore"
      case .drop(let stopping):
        let stopped = stopping == nil ? "no timer" : "stop the timer"
        outcome = "drop \(machine.latest ?? 0) (no demand), \(stopped)"
      case .deliver(let value, _): outcome = "deliver \(value)"
      }
    case .demand:
      let before = machine.demand
      machine.demandAdded(.max(2))
      outcome = "demand \(before.max ?? -1) → \(machine.demand.max ?? -1)"
    case .cancel:
      let stopped = machine.cancelled()
      outcome = "end, \(stopped == nil ? "no timer" : "cancel the timer")"
    }
    #expect(outcome == expected, "\(state) + \(event)")
  }

  @Test func debounceDeliversADueValueWhenTheSubscriberHasDemand() {
    var (machine, generation, timer) = Self.debounce(in: .due)
    machine.demandAdded(.max(1))
    guard case .deliver(1, let stopping) = machine.timerFired(generation: generation) else {
      Issue.record("a due value with demand is delivered")
      return
    }
    #expect(Self.isTimer(stopping, timer))
    #expect(machine.demand == .none)
    #expect(machine.latest == 1)
  }

  @Test func debounceKeepsTheLatestValueAfterItsEnd() {
    var (machine, _, _) = Self.debounce(in: .due)
    _ = machine.cancelled()
    #expect(machine.latest == 1)
  }

  @Test func debounceStopsOnAValueAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _, _) = TimingStateMachineTests.debounce(in: .ended)
      _ = machine.valueArrived(1)
    }
  }

  @Test func debounceStopsOnATimerFiringAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _, _) = TimingStateMachineTests.debounce(in: .ended)
      _ = machine.timerFired(generation: 0)
    }
  }

  @Test func debounceStopsOnASecondEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _, _) = TimingStateMachineTests.debounce(in: .ended)
      _ = machine.cancelled()
    }
  }

  // MARK: timeout

  enum TimeoutState: String, CaseIterable, Sendable {
    case awaitingRequest, requested, ended
  }

  enum TimeoutEvent: String, CaseIterable, Sendable {
    case clockScheduled, timerFired, staleTimerFired, request, upstreamCompleted, end
  }

  /// The machine in `state` with a running clock (unless ended), its generation and timer.
  static func timeout(in state: TimeoutState) -> (
    TimeoutStateMachine, generation: Int, timer: FakeTimer
  ) {
    var machine = TimeoutStateMachine()
    let generation = machine.clockStarting(on: 1)
    let timer = FakeTimer()
    machine.clockScheduled(timer, generation: generation).run()
    switch state {
    case .awaitingRequest: break
    case .requested: _ = machine.requested()
    case .ended: _ = machine.ended()
    }
    return (machine, generation, timer)
  }

  static func timeoutOutcome(_ state: TimeoutState, _ event: TimeoutEvent) -> String? {
    switch (state, event) {
    case (.ended, .clockScheduled): "cancel the new timer"
    case (_, .clockScheduled): "keep the new timer, cancel the replaced one"
    case (.ended, .timerFired), (.ended, .staleTimerFired): nil
    case (_, .timerFired): "time out, stop the timer"
    case (_, .staleTimerFired): "ignore"
    case (.awaitingRequest, .request): "start the clock and pass"
    case (.requested, .request): "pass"
    case (.ended, .request): nil
    case (.ended, .upstreamCompleted): nil
    case (_, .upstreamCompleted): "stop the timer"
    case (.ended, .end): nil
    case (_, .end): "end, stop the timer"
    }
  }

  @Test(arguments: TimeoutState.allCases, TimeoutEvent.allCases)
  func timeoutAnswersEveryEventInEveryState(_ state: TimeoutState, _ event: TimeoutEvent) {
    guard let expected = Self.timeoutOutcome(state, event) else { return }
    var (machine, generation, timer) = Self.timeout(in: state)
    let outcome: String
    switch event {
    case .clockScheduled:
      let next = machine.clockStarting(on: 2)
      #expect(machine.isStartingClock(on: 2))
      let new = FakeTimer()
      machine.clockScheduled(new, generation: next).run()
      #expect(!machine.isStartingClock(on: 2))
      outcome =
        new.cancelled
        ? "cancel the new timer"
        : "keep the new timer, \(timer.cancelled ? "cancel" : "keep") the replaced one"
    case .timerFired, .staleTimerFired:
      let firing = event == .timerFired ? generation : generation - 1
      switch machine.timerFired(generation: firing) {
      case .ignore: outcome = "ignore"
      case .timeOut(let stopping):
        outcome = "time out, \(Self.isTimer(stopping, timer) ? "stop the timer" : "?")"
      }
    case .request:
      switch machine.requested() {
      case .startClockAndPass: outcome = "start the clock and pass"
      case .pass: outcome = "pass"
      }
    case .upstreamCompleted:
      outcome = Self.isTimer(machine.upstreamCompleted(), timer) ? "stop the timer" : "?"
    case .end:
      outcome = Self.isTimer(machine.ended(), timer) ? "end, stop the timer" : "?"
    }
    #expect(outcome == expected, "\(state) + \(event)")
  }

  @Test func timeoutStopsOnARequestAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _, _) = TimingStateMachineTests.timeout(in: .ended)
      _ = machine.requested()
    }
  }

  @Test func timeoutStopsOnATimerFiringAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, generation, _) = TimingStateMachineTests.timeout(in: .ended)
      _ = machine.timerFired(generation: generation)
    }
  }

  @Test func timeoutStopsOnAnUpstreamCompletionAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _, _) = TimingStateMachineTests.timeout(in: .ended)
      _ = machine.upstreamCompleted()
    }
  }

  @Test func timeoutStopsOnASecondEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _, _) = TimingStateMachineTests.timeout(in: .ended)
      _ = machine.ended()
    }
  }
}

/// `throttle`'s machine on its own: every event in every state, and a stop for each event
/// that cannot happen in a state.
@Suite struct ThrottleStateMachineTests {
  typealias Machine = ThrottleStateMachine<Int, Never, TestScheduler>

  enum State: String, CaseIterable, Sendable {
    case idle, value, completion, valueThenCompletion, ended
  }

  enum Event: String, CaseIterable, Sendable {
    case value, completion, emit, cancel
  }

  /// The machine in `state`, with demand left, keeping the latest value.
  static func machine(in state: State) -> Machine {
    var machine = Machine(interval: .seconds(1), latest: true)
    machine.demandAdded(.max(2))
    switch state {
    case .idle: break
    case .value: _ = machine.valueArrived(1, now: SchedulerInstant(0))
    case .completion: _ = machine.completionArrived(.finished)
    case .valueThenCompletion:
      _ = machine.valueArrived(1, now: SchedulerInstant(0))
      _ = machine.completionArrived(.finished)
    case .ended: _ = machine.cancelled()
    }
    return machine
  }

  static func describe(_ emission: Machine.Emission) -> String {
    switch emission {
    case .nothing: "nothing"
    case .value(let value): "value \(value)"
    case .completion: "completion"
    case .valueThenCompletion(let value, _): "value \(value) then completion"
    }
  }

  /// What `event` does in `state`, in words; `nil` for a pair that stops the program.
  static func outcome(_ state: State, _ event: Event) -> String? {
    switch (state, event) {
    case (.idle, .value): "schedule now"
    case (.value, .value): "release 1"
    case (.completion, .value), (.valueThenCompletion, .value), (.ended, .value): nil
    case (.idle, .completion): "schedule now"
    case (.value, .completion): "follow the value"
    case (.completion, .completion), (.valueThenCompletion, .completion),
      (.ended, .completion):
      nil
    case (.idle, .emit): "nothing, then nothing"
    case (.value, .emit): "value 1, then nothing"
    case (.completion, .emit): "completion, then ended"
    case (.valueThenCompletion, .emit): "value 1 then completion, then ended"
    case (.ended, .emit): nil
    case (.idle, .cancel), (.ended, .cancel): "nothing, then ended"
    case (.value, .cancel): "value 1, then ended"
    case (.completion, .cancel): "completion, then ended"
    case (.valueThenCompletion, .cancel): "value 1 then completion, then ended"
    }
  }

  @Test(arguments: State.allCases, Event.allCases)
  func throttleAnswersEveryEventInEveryState(_ state: State, _ event: Event) {
    guard let expected = Self.outcome(state, event) else { return }
    var machine = Self.machine(in: state)
    let outcome: String
    switch event {
    case .value:
      switch machine.valueArrived(2, now: SchedulerInstant(0)) {
      case .drop: outcome = "drop"
      case .release(let replaced): outcome = "release \(replaced)"
      case .scheduleNow: outcome = "schedule now"
      case .schedule: outcome = "schedule later"
      }
    case .completion:
      switch machine.completionArrived(.finished) {
      case .scheduleNow: outcome = "schedule now"
      case .followValue: outcome = "follow the value"
      }
    case .emit:
      outcome =
        "\(Self.describe(machine.emit(now: SchedulerInstant(0)))), then \(Self.stateName(machine))"
    case .cancel:
      outcome = "\(Self.describe(machine.cancelled())), then ended"
    }
    #expect(outcome == expected, "\(state) + \(event)")
  }

  /// `ended` or `nothing` (idle): told apart by the mirror of the machine's state.
  static func stateName(_ machine: Machine) -> String {
    let state = Mirror(reflecting: machine).children.first { $0.label == "state" }?.value
    return state.map { "\($0)" } == "ended" ? "ended" : "nothing"
  }

  @Test func throttleDropsAValueWithoutDemandAndSchedulesAfterTheInterval() {
    var machine = Machine(interval: .seconds(1), latest: false)
    guard case .drop = machine.valueArrived(1, now: SchedulerInstant(0)) else {
      Issue.record("no demand: dropped")
      return
    }
    machine.demandAdded(.max(2))
    _ = machine.valueArrived(1, now: SchedulerInstant(0))
    _ = machine.emit(now: SchedulerInstant(0))
    guard case .schedule(let due) = machine.valueArrived(2, now: SchedulerInstant(0)) else {
      Issue.record("a value within the interval waits for its end")
      return
    }
    #expect(due == SchedulerInstant(0).advanced(by: .seconds(1)))
  }

  @Test func throttleStopsOnAValueAfterItsCompletion() async {
    await #expect(processExitsWith: .failure) {
      var machine = ThrottleStateMachineTests.machine(in: .completion)
      _ = machine.valueArrived(2, now: SchedulerInstant(0))
    }
  }

  @Test func throttleStopsOnASecondCompletion() async {
    await #expect(processExitsWith: .failure) {
      var machine = ThrottleStateMachineTests.machine(in: .valueThenCompletion)
      _ = machine.completionArrived(.finished)
    }
  }

  @Test func throttleStopsOnAnEmissionAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var machine = ThrottleStateMachineTests.machine(in: .ended)
      _ = machine.emit(now: nil)
    }
  }

  @Test func throttleStopsOnAValueAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var machine = ThrottleStateMachineTests.machine(in: .ended)
      _ = machine.valueArrived(2, now: SchedulerInstant(0))
    }
  }
}

/// `collect(byTime:)`'s and `collect(.byTimeOrCount)`'s machine on its own: every event in
/// every state, and a stop for each event that cannot happen in a state.
@Suite struct CollectByTimeStateMachineTests {
  typealias Machine = CollectByTimeStateMachine<Int, TestError>

  enum State: String, CaseIterable, Sendable {
    case collecting, completing, finished
  }

  enum Event: String, CaseIterable, Sendable {
    case timerScheduled, value, timerFired, completion, nextStep, request, groupReturned, cancel
  }

  /// The machine in `state`, counting to two, its timer running (until the end), with a
  /// demand of one and the value 1 gathered (or closed into a group, once completing).
  static func machine(in state: State) -> (Machine, timer: TimingStateMachineTests.FakeTimer) {
    var machine = Machine(maxCount: 2)
    let timer = TimingStateMachineTests.FakeTimer()
    _ = machine.timerScheduled(timer)
    _ = machine.requested(.max(1))
    _ = machine.valueArrived(1)
    switch state {
    case .collecting: break
    case .completing: _ = machine.completionArrived(.finished)
    case .finished: _ = machine.cancelled()
    }
    return (machine, timer)
  }

  static func describe(_ step: Machine.Step) -> String {
    switch step {
    case .group(let values, let byCount): "group \(values)\(byCount ? " by count" : "")"
    case .completion: "completion"
    case .idle: "idle"
    }
  }

  /// What `event` does in `state`, in words; `nil` for a pair that stops the program.
  static func outcome(_ state: State, _ event: Event) -> String? {
    switch (state, event) {
    case (.collecting, .timerScheduled): "keep the timer"
    case (.completing, .timerScheduled), (.finished, .timerScheduled): "cancel the timer"
    case (.collecting, .value): "drain later, group [1, 2] by count"
    case (.collecting, .timerFired): "drain now, group [1]"
    case (.collecting, .completion): "stop the timer"
    case (.collecting, .nextStep): "idle"
    case (.completing, .nextStep): "group [1]"
    case (.collecting, .request): "ask upstream for max(2), wait"
    case (.completing, .request): "ask upstream for max(2), drain later"
    case (.collecting, .groupReturned), (.completing, .groupReturned):
      "ask upstream for max(2)"
    case (.collecting, .cancel): "stop the timer"
    case (.completing, .cancel), (.finished, .cancel): "no timer"
    case (.completing, .value), (.finished, .value), (.completing, .timerFired),
      (.finished, .timerFired), (.completing, .completion), (.finished, .completion),
      (.finished, .nextStep), (.finished, .request), (.finished, .groupReturned):
      nil
    }
  }

  @Test(arguments: State.allCases, Event.allCases)
  func collectByTimeAnswersEveryEventInEveryState(_ state: State, _ event: Event) {
    guard let expected = Self.outcome(state, event) else { return }
    var (machine, timer) = Self.machine(in: state)
    let outcome: String
    switch event {
    case .timerScheduled:
      let new = TimingStateMachineTests.FakeTimer()
      outcome = machine.timerScheduled(new) == nil ? "keep the timer" : "cancel the timer"
    case .value:
      let action = machine.valueArrived(2)
      _ = machine.requested(.max(1))
      outcome =
        "\(action == .scheduleDrain ? "drain later" : "?"), \(Self.describe(machine.nextStep()))"
    case .timerFired:
      let action = machine.timerFired()
      outcome = "\(action == .drain ? "drain now" : "?"), \(Self.describe(machine.nextStep()))"
    case .completion:
      let stopped = machine.completionArrived(.failure(.oops))
      outcome = TimingStateMachineTests.isTimer(stopped, timer) ? "stop the timer" : "?"
    case .nextStep:
      outcome = Self.describe(machine.nextStep())
    case .request:
      let (upstream, action) = machine.requested(.max(1))
      outcome =
        "ask upstream for \(upstream.map { "\($0)" } ?? "nothing"), "
        + (action == .scheduleDrain ? "drain later" : "wait")
    case .groupReturned:
      let upstream = machine.groupReturned(.max(1), byCount: true)
      outcome = "ask upstream for \(upstream.map { "\($0)" } ?? "nothing")"
    case .cancel:
      let stopped = machine.cancelled()
      outcome =
        stopped == nil
        ? "no timer" : TimingStateMachineTests.isTimer(stopped, timer) ? "stop the timer" : "?"
    }
    #expect(outcome == expected, "\(state) + \(event)")
  }

  @Test func afterAFailureTheGroupsWithoutDemandAreDroppedAndTheFailureGoes() {
    var (machine, _) = Self.machine(in: .collecting)
    _ = machine.timerFired()
    _ = machine.valueArrived(3)
    _ = machine.timerFired()
    _ = machine.completionArrived(.failure(.oops))
    #expect(Self.describe(machine.nextStep()) == "group [1]")
    // [3] has no demand: a failure does not wait for it.
    #expect(Self.describe(machine.nextStep()) == "completion")
  }

  @Test func aFinishWaitsBehindTheClosedGroupsThenGoesWithoutDemand() {
    var (machine, _) = Self.machine(in: .completing)
    #expect(Self.describe(machine.nextStep()) == "group [1]")
    // A completion needs no demand.
    #expect(Self.describe(machine.nextStep()) == "completion")
  }

  @Test func collectByTimeStopsOnAValueAfterItsCompletion() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _) = CollectByTimeStateMachineTests.machine(in: .completing)
      _ = machine.valueArrived(2)
    }
  }

  @Test func collectByTimeStopsOnATimerFiringAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _) = CollectByTimeStateMachineTests.machine(in: .finished)
      _ = machine.timerFired()
    }
  }

  @Test func collectByTimeStopsOnASecondCompletion() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _) = CollectByTimeStateMachineTests.machine(in: .completing)
      _ = machine.completionArrived(.finished)
    }
  }

  @Test func collectByTimeStopsOnADrainAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _) = CollectByTimeStateMachineTests.machine(in: .finished)
      _ = machine.nextStep()
    }
  }

  @Test func collectByTimeStopsOnARequestAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _) = CollectByTimeStateMachineTests.machine(in: .finished)
      _ = machine.requested(.max(1))
    }
  }

  @Test func collectByTimeStopsOnReturnedDemandAfterItsEnd() async {
    await #expect(processExitsWith: .failure) {
      var (machine, _) = CollectByTimeStateMachineTests.machine(in: .finished)
      _ = machine.groupReturned(.max(1), byCount: true)
    }
  }
}
