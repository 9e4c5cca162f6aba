import Testing

@testable import ReactiveCore

/// The decisions of ``ConcatenateStateMachine`` (in its ``ConcatenateState``) on their own: which upstream is active,
/// and what demand the suffix inherits.
@Suite struct ConcatenateStateMachineTests {
  @Test func theSuffixIsSubscribedAfterThePrefixAndInheritsTheDemandLeft() {
    let prefix = RecordingSubscription()
    var state = ConcatenateState(suffix: "suffix")
    guard case .handDownstream = state.machine.prefixSubscribed(prefix),
      case .cancel = state.machine.prefixSubscribed(RecordingSubscription())
    else {
      Issue.record("only the first prefix subscription is handed downstream")
      return
    }
    let asked = state.machine.demandRequested(.max(2))
    #expect(asked.map { ObjectIdentifier($0 as AnyObject) } == ObjectIdentifier(prefix))
    guard case .deliver = state.machine.prefixValueArrived() else {
      Issue.record("a prefix value with demand is delivered")
      return
    }
    guard case .subscribe("suffix") = state.prefixCompleted(failed: false) else {
      Issue.record("the prefix's finish subscribes to the suffix")
      return
    }
    guard case .drop = state.machine.prefixValueArrived() else {
      Issue.record("the prefix no longer counts")
      return
    }
    guard case .request(.max(1)) = state.machine.suffixSubscribed(RecordingSubscription()) else {
      Issue.record("the suffix is asked for what the prefix left")
      return
    }
    guard case .complete = state.machine.suffixCompleted(),
      case .ignore = state.machine.suffixCompleted()
    else {
      Issue.record("the suffix's completion ends the subscription once")
      return
    }
  }

  @Test func aPrefixValueNobodyAskedForIsDropped() {
    var state = ConcatenateState(suffix: "suffix")
    _ = state.machine.prefixSubscribed(RecordingSubscription())
    guard case .drop = state.machine.prefixValueArrived() else {
      Issue.record("a prefix value without demand is dropped")
      return
    }
  }

  @Test func aPrefixFailureEndsEverythingAndACancelReleasesTheSuffixOnlyIfUnused() {
    var failed = ConcatenateState(suffix: "suffix")
    _ = failed.machine.prefixSubscribed(RecordingSubscription())
    guard case .fail = failed.prefixCompleted(failed: true),
      case .cancel(nil, releasing: nil) = failed.cancelled()
    else {
      Issue.record("a failure ends the subscription and lets the suffix go")
      return
    }
    var cancelled = ConcatenateState(suffix: "suffix")
    _ = cancelled.machine.prefixSubscribed(RecordingSubscription())
    guard case .cancel(.some(_), releasing: "suffix") = cancelled.cancelled() else {
      Issue.record("a cancel stops the prefix and releases the suffix publisher")
      return
    }
  }
}

/// ``ConcatenateStateMachine``: every event in every phase.
@Suite struct ConcatenateStateMachineTableTests {
  enum Phase: String, CaseIterable, Sendable {
    case awaitingPrefix, prefix, awaitingSuffix, suffix, terminal
  }

  enum Event: String, CaseIterable, Sendable {
    case prefixSubscription, suffixSubscription, prefixValue, suffixValue, prefixFinished,
      prefixFailed, suffixFinished, request, cancel
  }

  /// The machine in `phase`, with a demand of one left.
  static func machine(in phase: Phase) -> ConcatenateStateMachine {
    var machine = ConcatenateStateMachine()
    _ = machine.demandRequested(.max(1))
    if phase == .awaitingPrefix { return machine }
    _ = machine.prefixSubscribed(RecordingSubscription())
    switch phase {
    case .awaitingPrefix, .prefix: break
    case .awaitingSuffix: _ = machine.prefixCompleted(failed: false)
    case .suffix:
      _ = machine.prefixCompleted(failed: false)
      _ = machine.suffixSubscribed(RecordingSubscription())
    case .terminal: _ = machine.cancelled()
    }
    return machine
  }

  static func outcome(_ phase: Phase, _ event: Event) -> String {
    switch (phase, event) {
    case (.awaitingPrefix, .prefixSubscription): "hand downstream"
    case (_, .prefixSubscription): "cancel"
    case (.awaitingSuffix, .suffixSubscription): "request max(1)"
    case (_, .suffixSubscription): "cancel"
    case (.prefix, .prefixValue): "deliver"
    case (_, .prefixValue): "drop"
    case (.suffix, .suffixValue): "deliver"
    case (_, .suffixValue): "drop"
    case (.prefix, .prefixFinished): "subscribe the suffix"
    case (.prefix, .prefixFailed): "fail"
    case (_, .prefixFinished), (_, .prefixFailed): "ignore"
    case (.suffix, .suffixFinished): "complete"
    case (_, .suffixFinished): "ignore"
    case (.prefix, .request), (.suffix, .request): "pass to the active upstream"
    case (_, .request): "hold"
    case (.prefix, .cancel), (.suffix, .cancel): "cancel the active upstream"
    case (_, .cancel): "nothing to cancel"
    }
  }

  @Test(arguments: Phase.allCases, Event.allCases)
  func concatenateAnswersEveryEventInEveryPhase(_ phase: Phase, _ event: Event) {
    var machine = Self.machine(in: phase)
    func describe(_ action: ConcatenateStateMachine.SubscriptionAction) -> String {
      switch action {
      case .handDownstream: "hand downstream"
      case .request(let demand): "request \(demand)"
      case .cancel: "cancel"
      }
    }
    func describe(_ action: ConcatenateStateMachine.ValueAction) -> String {
      switch action {
      case .drop: "drop"
      case .deliver: "deliver"
      }
    }
    let outcome: String
    switch event {
    case .prefixSubscription: outcome = describe(machine.prefixSubscribed(RecordingSubscription()))
    case .suffixSubscription: outcome = describe(machine.suffixSubscribed(RecordingSubscription()))
    case .prefixValue: outcome = describe(machine.prefixValueArrived())
    case .suffixValue: outcome = describe(machine.suffixValueArrived())
    case .prefixFinished, .prefixFailed:
      switch machine.prefixCompleted(failed: event == .prefixFailed) {
      case .ignore: outcome = "ignore"
      case .subscribeSuffix: outcome = "subscribe the suffix"
      case .fail: outcome = "fail"
      }
    case .suffixFinished:
      switch machine.suffixCompleted() {
      case .ignore: outcome = "ignore"
      case .complete: outcome = "complete"
      }
    case .request:
      outcome = machine.demandRequested(.max(1)) == nil ? "hold" : "pass to the active upstream"
    case .cancel:
      outcome = machine.cancelled() == nil ? "nothing to cancel" : "cancel the active upstream"
    }
    #expect(outcome == Self.outcome(phase, event), "\(phase) + \(event)")
  }
}
