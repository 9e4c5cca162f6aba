import ReactiveCore
import Testing

/// A subscription built on an internal base class (`Guarded`, an engine) dumps as
/// Combine's does: its own children only, no `super` entry for the base class.
@Suite struct MirrorAncestryTests {
  /// Dumps the subscription that `publisher` hands a subscriber.
  private func dumpedSubscription<P: Publisher>(of publisher: P) -> String
  where P.Output == Int, P.Failure: Equatable {
    let tracker = TrackingSubscriber<Int, P.Failure>(initialDemand: nil)
    publisher.subscribe(tracker)
    var dumped = ""
    if let subscription = tracker.subscription { dump(subscription, to: &dumped) }
    tracker.cancel()
    return dumped
  }

  @Test func aResultPublishersSubscriptionDumpsOnlyItsValue() {
    let dumped = dumpedSubscription(of: Result<Int, TestError>.Publisher(42))
    #expect(dumped == "▿ Once #0\n  - 42\n")
  }

  @Test(arguments: [
    (name: "buffer", dump: "Buffer"), (name: "tryMap", dump: "TryMap"),
    (name: "handleEvents", dump: "HandleEvents"), (name: "zip", dump: "Zip"),
  ])
  func anEngineSubscriptionShowsNoBaseClass(name: String, dump expectedName: String) {
    let subject = PassthroughSubject<Int, Never>()
    let dumped: String
    switch name {
    case "buffer":
      dumped = dumpedSubscription(
        of: subject.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest))
    case "tryMap":
      dumped = dumpedSubscription(of: subject.tryMap { $0 }.mapError { _ in TestError.oops })
    case "handleEvents": dumped = dumpedSubscription(of: subject.handleEvents())
    default: dumped = dumpedSubscription(of: subject.zip(subject).map { $0.0 })
    }
    #expect(dumped.contains(expectedName))
    #expect(!dumped.contains("super:"))
    #expect(!dumped.contains("Guarded"))
  }
}
