import Dispatch
import ReactiveCore
import Synchronization
import Testing

/// The race windows of a subject conduit whose delivery lock also keeps its subscriber
/// alive: an end (cancel or completion) tries to release the subscriber, and a delivery
/// that held the lock meanwhile releases it when it unlocks. CI runs these under the
/// thread sanitizer and the address sanitizer.
@Suite struct SubjectConduitStressTests {
  /// A subscriber that records what it receives and when, and what it is asked to do
  /// from inside a delivery.
  final class Recorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let received = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    let valuesAfterEnd = Atomic<Int>(0)
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let ended = Atomic<Bool>(false)
    let subscription = LockedBox<(any Subscription)?>(nil)
    /// Cancels itself when this many values have arrived (0: never).
    let cancelAfter: Int
    /// Sends each value it gets, plus one, back into this subject while below the bound.
    let echo: (subject: PassthroughSubject<Int, Never>, below: Int)?

    init(cancelAfter: Int = 0, echo: (subject: PassthroughSubject<Int, Never>, below: Int)? = nil) {
      self.cancelAfter = cancelAfter
      self.echo = echo
    }

    func receive(subscription: any Subscription) {
      self.subscription.withLock { $0 = subscription }
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      // Re-entrant echoes nest on this thread; only other threads' deliveries overlap.
      let depth = inside.add(1, ordering: .sequentiallyConsistent).newValue
      if ended.load(ordering: .sequentiallyConsistent) {
        valuesAfterEnd.add(1, ordering: .relaxed)
      }
      let count = received.add(1, ordering: .relaxed).newValue
      if let echo, input < echo.below { echo.subject.send(input + 1) }
      if count == cancelAfter {
        ended.store(true, ordering: .sequentiallyConsistent)
        subscription.withLock { $0 }?.cancel()
      }
      if inside.subtract(1, ordering: .sequentiallyConsistent).newValue != depth - 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      ended.store(true, ordering: .sequentiallyConsistent)
      completions.add(1, ordering: .relaxed)
    }
  }

  /// Sends walk the subscriber list without a reference of their own while other
  /// threads subscribe and cancel (the list grows, moves and is compacted under them):
  /// a subscriber that stays gets every value once, and every one that left is let go
  /// once the sends are over.
  @Test func subscribersComingAndGoingWhileOthersSendLoseNothingAndLetGo() {
    for _ in 0..<10 {
      let subject = PassthroughSubject<Int, Never>()
      let steady = Recorder()
      subject.subscribe(steady)
      let churned = LockedBox<[Weak]>([])
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        if index < 2 {
          for value in 0..<2_000 { subject.send(value) }
          return
        }
        for _ in 0..<300 {
          let recorders = (0..<5).map { _ in Recorder() }
          for recorder in recorders { subject.subscribe(recorder) }
          churned.withLock { $0 += recorders.map { Weak($0) } }
          for recorder in recorders { recorder.subscription.withLock { $0 }?.cancel() }
        }
      }
      #expect(steady.received.load(ordering: .relaxed) == 4_000)
      #expect(steady.overlaps.load(ordering: .relaxed) == 0)
      #expect(churned.withLock { $0.allSatisfy { $0.object == nil } })
      // The recorder holds its subscription, which holds it until it ends.
      steady.subscription.withLock { $0 }?.cancel()
    }
  }

  /// A weak reference to a recorder, to check that it was let go.
  struct Weak: @unchecked Sendable {
    weak var object: Recorder?
    init(_ object: Recorder) { self.object = object }
  }

  @Test func aCompletionRacingWithSendsArrivesOnceAfterEveryValueAndLetsGo() {
    for _ in 0..<20 {
      let subject = PassthroughSubject<Int, Never>()
      weak var weakRecorder: Recorder?
      do {
        let recorder = Recorder()
        weakRecorder = recorder
        subject.subscribe(recorder)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
          for value in 0..<500 {
            if index == 0, value == 250 { subject.send(completion: .finished) }
            subject.send(value)
          }
        }
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.valuesAfterEnd.load(ordering: .relaxed) == 0)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
      }
      #expect(weakRecorder == nil)
    }
  }

  @Test func aCancelFromInsideADeliveryWhileOthersSendStopsValuesAndLetsGo() {
    for _ in 0..<20 {
      let subject = PassthroughSubject<Int, Never>()
      weak var weakRecorder: Recorder?
      do {
        let recorder = Recorder(cancelAfter: 300)
        weakRecorder = recorder
        subject.subscribe(recorder)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
          for value in 0..<500 { subject.send(value) }
        }
        #expect(recorder.received.load(ordering: .relaxed) == 300)
        #expect(recorder.valuesAfterEnd.load(ordering: .relaxed) == 0)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
      }
      #expect(weakRecorder == nil)
    }
  }

  @Test func reentrantSendsAndACancelFromInsideFromSeveralThreadsLetGo() {
    for _ in 0..<20 {
      let subject = PassthroughSubject<Int, Never>()
      weak var weakRecorder: Recorder?
      do {
        // Each sent 0 comes back as 1, 2, 3 nested on the sending thread.
        let recorder = Recorder(cancelAfter: 1_000, echo: (subject, 3))
        weakRecorder = recorder
        subject.subscribe(recorder)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
          for _ in 0..<500 { subject.send(0) }
        }
        #expect(recorder.received.load(ordering: .relaxed) >= 1_000)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
      }
      #expect(weakRecorder == nil)
    }
  }

  @Test func aCancelFromAnotherThreadDuringADeliveryLetsGoWhenItReturns() {
    for _ in 0..<200 {
      let subject = PassthroughSubject<Int, Never>()
      weak var weakRecorder: Recorder?
      let subscription = LockedBox<(any Subscription)?>(nil)
      do {
        let recorder = Recorder()
        weakRecorder = recorder
        subject.subscribe(recorder)
        subscription.withLock { $0 = recorder.subscription.withLock { $0 } }
      }
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<200 { subject.send(value) }
        } else {
          subscription.withLock { $0 }?.cancel()
        }
      }
      #expect(weakRecorder == nil)
    }
  }
}
