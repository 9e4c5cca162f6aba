import ReactiveCore
import Testing

@Suite struct ContainsTests {
  @Test func containsFinishesEarlyAndCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Bool, Never>()
    subject.contains(2).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    #expect(tracker.values == [true])
    #expect(tracker.completions == [.finished])
    subject.send(2)
    #expect(tracker.values == [true])
  }
}
