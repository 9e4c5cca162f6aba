import ReactiveCore
import Testing

@Suite struct PrefixTests {
  @Test func prefixFinishesWithoutWaitingForMore() {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    subject.prefix(2).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    #expect(tracker.completions == [.finished])
    subject.send(3)
    #expect(tracker.values == [1, 2])
  }
}
