import Testing

@testable import ReactiveCore

/// The decisions of ``ConcatenateStateMachine`` on their own: which upstream is active,
/// and what demand the suffix inherits.
@Suite struct ConcatenateStateMachineTests {
  @Test func theSuffixIsSubscribedAfterThePrefixAndInheritsTheDemandLeft() {
    let prefix = RecordingSubscription()
    var machine = ConcatenateStateMachine(suffix: "suffix")
    guard case .handDownstream = machine.prefixSubscribed(prefix),
      case .cancel = machine.prefixSubscribed(RecordingSubscription())
    else {
      Issue.record("only the first prefix subscription is handed downstream")
      return
    }
    let asked = machine.demandRequested(.max(2))
    #expect(asked.map { ObjectIdentifier($0 as AnyObject) } == ObjectIdentifier(prefix))
    guard case .deliver = machine.prefixValueArrived() else {
      Issue.record("a prefix value with demand is delivered")
      return
    }
    guard case .subscribe("suffix") = machine.prefixCompleted(failed: false) else {
      Issue.record("the prefix's finish subscribes to the suffix")
      return
    }
    guard case .drop = machine.prefixValueArrived() else {
      Issue.record("the prefix no longer counts")
      return
    }
    guard case .request(.max(1)) = machine.suffixSubscribed(RecordingSubscription()) else {
      Issue.record("the suffix is asked for what the prefix left")
      return
    }
    guard case .complete = machine.suffixCompleted(), case .ignore = machine.suffixCompleted()
    else {
      Issue.record("the suffix's completion ends the subscription once")
      return
    }
  }

  @Test func aPrefixValueNobodyAskedForIsDropped() {
    var machine = ConcatenateStateMachine(suffix: "suffix")
    _ = machine.prefixSubscribed(RecordingSubscription())
    guard case .drop = machine.prefixValueArrived() else {
      Issue.record("a prefix value without demand is dropped")
      return
    }
  }

  @Test func aPrefixFailureEndsEverythingAndACancelReleasesTheSuffixOnlyIfUnused() {
    var failed = ConcatenateStateMachine(suffix: "suffix")
    _ = failed.prefixSubscribed(RecordingSubscription())
    guard case .fail = failed.prefixCompleted(failed: true),
      case .cancel(nil, releasing: nil) = failed.cancelled()
    else {
      Issue.record("a failure ends the subscription and lets the suffix go")
      return
    }
    var cancelled = ConcatenateStateMachine(suffix: "suffix")
    _ = cancelled.prefixSubscribed(RecordingSubscription())
    guard case .cancel(.some(_), releasing: "suffix") = cancelled.cancelled() else {
      Issue.record("a cancel stops the prefix and releases the suffix publisher")
      return
    }
  }
}
