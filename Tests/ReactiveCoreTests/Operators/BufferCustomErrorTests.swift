import ReactiveCore
import Testing

/// `buffer(size:prefetch:whenFull: .customError)` makes its error under its lock, as
/// Combine does: an error closure that sends to the buffer again traps instead of
/// interleaving a second value with the failure.
@Suite struct BufferCustomErrorTests {
  @Test func anErrorClosureThatSendsToTheBufferAgainTraps() async {
    await #expect(processExitsWith: .failure) {
      let subject = PassthroughSubject<Int, TestError>()
      let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(2))
      subject.buffer(
        size: 0, prefetch: .keepFull,
        whenFull: .customError {
          subject.send(1_000)
          return TestError.oops
        }
      ).subscribe(tracker)
      subject.send(0)
    }
  }

  @Test func aFullBufferMakesTheCustomErrorOnceAndFailsAtTheNextDelivery() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    var made = 0
    subject.buffer(
      size: 1, prefetch: .byRequest,
      whenFull: .customError {
        made += 1
        return TestError.oops
      }
    ).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(made == 1)
    // The failure waits for the next delivery, behind the held value demand allows.
    tracker.request(.max(1))
    #expect(tracker.values == [1])
    #expect(tracker.completions == [.failure(.oops)])
  }
}
