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
