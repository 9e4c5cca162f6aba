import Foundation
import ReactiveCore
import Testing

/// Runs the current run loop until `done()` holds or `limit` seconds pass.
private func spinRunLoop(upTo limit: TimeInterval = 5, until done: () -> Bool) {
  let deadline = Date().addingTimeInterval(limit)
  while !done(), Date() < deadline {
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
}

/// The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
/// here: as in Combine, a completion or a cancel releases everything.
@Suite struct LeakCombineTests {
  @Test func aZipThatRunsOutCancelsAndReleasesTheOtherUpstream() {
    weak var weakZip: AnyObject?
    let cancelled = LockedBox(false)
    do {
      let numbers = PassthroughSubject<Int, Never>()
      let letters = PassthroughSubject<String, Never>()
      let tracker = TrackingSubscriber<String, Never>()
      numbers.zip(letters.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })) {
        "\($0)\($1)"
      }
      .subscribe(tracker)
      weakZip = tracker.subscription as AnyObject?
      #expect(weakZip != nil)
      numbers.send(1)
      numbers.send(completion: .finished)
      letters.send("x")
      #expect(tracker.values == ["1x"])
      #expect(tracker.completions == [.finished])
      #expect(cancelled.withLock { $0 })
    }
    #expect(weakZip == nil)
  }

  @Test func aCombineLatestSideFinishingWithoutAValueCancelsAndReleasesTheOthers() {
    weak var weakCombineLatest: AnyObject?
    let cancelled = LockedBox(false)
    do {
      let numbers = PassthroughSubject<Int, Never>()
      let letters = PassthroughSubject<String, Never>()
      let tracker = TrackingSubscriber<String, Never>()
      numbers.combineLatest(
        letters.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
      ) { "\($0)\($1)" }
      .subscribe(tracker)
      weakCombineLatest = tracker.subscription as AnyObject?
      #expect(weakCombineLatest != nil)
      letters.send("x")
      numbers.send(completion: .finished)
      #expect(tracker.completions == [.finished])
      #expect(cancelled.withLock { $0 })
    }
    #expect(weakCombineLatest == nil)
  }

  @Test func droppingAnAsyncIteratorCancelsAndReleasesTheSubscription() async {
    weak var weakToken: Token?
    let cancelled = LockedBox(false)
    do {
      let token = Token()
      weakToken = token
      let publisher = (1...3).publisher
        .handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        .map { value -> Int in
          _ = token
          return value
        }
      var iterator = publisher.values.makeAsyncIterator()
      #expect(await iterator.next() == 1)
    }
    #expect(cancelled.withLock { $0 })
    #expect(weakToken == nil)
  }

  @Test func breakingOutOfAThrowingForAwaitLoopCancelsAndReleasesTheSubscription() async throws {
    weak var weakToken: Token?
    let cancelled = LockedBox(false)
    do {
      let token = Token()
      weakToken = token
      let publisher = (1...3).publisher.setFailureType(to: TestError.self)
        .handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        .map { value -> Int in
          _ = token
          return value
        }
      for try await value in publisher.values where value == 1 { break }
    }
    #expect(cancelled.withLock { $0 })
    #expect(weakToken == nil)
  }

  @Test func aRunLoopReleasesAOneShotActionOnceItRan() {
    let runLoop = RunLoop.current
    weak var weakToken: Token?
    var ran = false
    do {
      let token = Token()
      weakToken = token
      runLoop.schedule(after: runLoop.now) {
        _ = token
        ran = true
      }
    }
    spinRunLoop { ran }
    #expect(ran)
    #expect(weakToken == nil)
  }

  @Test func aRunLoopReleasesARepeatingActionWhenCancelled() {
    let runLoop = RunLoop.current
    weak var weakToken: Token?
    var ticks = 0
    let cancellable: any Cancellable
    do {
      let token = Token()
      weakToken = token
      cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(1)) {
        _ = token
        ticks += 1
      }
    }
    spinRunLoop { ticks >= 1 }
    cancellable.cancel()
    #expect(ticks >= 1)
    #expect(weakToken == nil)
  }

  @Test func aTimerConnectionStopsAndReleasesTheSubjectAfterThePublisherIsGone() {
    weak var weakSubject: PassthroughSubject<Date, Never>?
    var ticks = 0
    let connection: any Cancellable
    let cancellable: AnyCancellable
    do {
      let publisher = Timer.publish(every: 0.001, on: .current, in: .default)
      weakSubject =
        Mirror(reflecting: publisher).descendant("subject")
        as? PassthroughSubject<Date, Never>
      cancellable = publisher.sink { _ in ticks += 1 }
      connection = publisher.connect()
      spinRunLoop { ticks >= 1 }
    }
    #expect(weakSubject != nil)
    connection.cancel()
    let seen = ticks
    spinRunLoop(upTo: 0.02) { false }
    #expect(ticks == seen)
    cancellable.cancel()
    #expect(weakSubject == nil)
  }
}

/// What LeakSanitizer reported for these in tests that never cancel was the test's own
/// cycle (a ``TrackingSubscriber`` keeps its subscription): cancelled or completed, they
/// release everything, which these hold weakly.
@Suite struct LeakArtefactCombineTests {
  @Test func debounceOnATestSchedulerReleasesEverythingOnCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    weak var weakScheduler: TestScheduler?
    do {
      let scheduler = TestScheduler()
      weakScheduler = scheduler
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
      subject.send(1)
      scheduler.advance(by: .seconds(1))
      subject.send(2)
      #expect(tracker.values == [1])
      #expect(scheduler.pendingCount == 1)
      tracker.cancel()
      #expect(scheduler.pendingCount == 0)
    }
    #expect(weakTracker == nil)
    #expect(weakScheduler == nil)
  }

  @Test func debounceOnATestSchedulerReleasesEverythingOnCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    weak var weakScheduler: TestScheduler?
    do {
      let scheduler = TestScheduler()
      weakScheduler = scheduler
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
      subject.send(1)
      subject.send(completion: .finished)
      scheduler.advance()
      #expect(tracker.completions == [.finished])
      #expect(scheduler.pendingCount == 0)
    }
    #expect(weakTracker == nil)
    #expect(weakScheduler == nil)
  }

  @Test func aRepeatingTestSchedulerActionIsReleasedWhenCancelled() {
    let scheduler = TestScheduler()
    weak var weakToken: Token?
    var runs = 0
    let cancellable: any Cancellable
    do {
      let token = Token()
      weakToken = token
      cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
        _ = token
        runs += 1
      }
    }
    scheduler.advance(by: .seconds(2))
    cancellable.cancel()
    #expect(runs == 3)
    #expect(scheduler.pendingCount == 0)
    #expect(weakToken == nil)
  }

  @Test(arguments: [false, true])
  func dropUntilOutputFromReleasesEverythingOnCancel(triggered: Bool) {
    let upstream = PassthroughSubject<Int, Never>()
    let triggerCancelled = LockedBox(false)
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    do {
      // Once it has fired, Combine's operator lets go of the trigger's subscription
      // without cancelling it, so the trigger keeps the operator until it completes.
      let trigger = PassthroughSubject<Void, Never>()
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      upstream.drop(
        untilOutputFrom: trigger.handleEvents(receiveCancel: {
          triggerCancelled.withLock { $0 = true }
        })
      )
      .subscribe(tracker)
      if triggered { trigger.send(()) }
      upstream.send(1)
      #expect(tracker.values == (triggered ? [1] : []))
      tracker.cancel()
      // A subject keeps its subscribers until they cancel or it completes (Combine's
      // subjects and their conduits hold each other); the fired trigger's subscriber is
      // released when the trigger completes.
      trigger.send(completion: .finished)
    }
    // Before it fires, a cancel reaches the trigger; after, the trigger is done with.
    #expect(triggerCancelled.withLock { $0 } == !triggered)
    #expect(weakTracker == nil)
  }

  @Test func dropUntilOutputFromReleasesEverythingOnCompletion() {
    let upstream = PassthroughSubject<Int, Never>()
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    do {
      // As in Combine, the upstream's completion does not cancel the trigger, which keeps
      // the operator until the trigger completes.
      let trigger = PassthroughSubject<Void, Never>()
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      upstream.drop(untilOutputFrom: trigger).subscribe(tracker)
      upstream.send(completion: .finished)
      #expect(tracker.completions == [.finished])
      tracker.cancel()
      trigger.send(completion: .finished)
    }
    #expect(weakTracker == nil)
  }

  @Test(arguments: [false, true])
  func aSubjectReleasesItsSubscriberAndItselfOnCancelOrCompletion(completes: Bool) {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      subject.map { $0 + 1 }.subscribe(tracker)
      subject.send(1)
      #expect(tracker.values == [2])
      if completes { subject.send(completion: .finished) } else { tracker.cancel() }
    }
    #expect(weakSubject == nil)
    #expect(weakTracker == nil)
  }
}
