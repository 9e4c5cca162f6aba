import Dispatch
import ReactiveCore
import Testing

@Suite struct ZipTests {
  @Test func zipPairsInOrderAndFinishesWhenOneRunsOut() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let tracker = TrackingSubscriber<String, Never>()
    a.zip(b) { "\($0)\($1)" }.subscribe(tracker)
    a.send(1)
    a.send(2)
    b.send("x")
    a.send(completion: .finished)
    #expect(tracker.completions.isEmpty)
    b.send("y")
    #expect(tracker.values == ["1x", "2y"])
    #expect(tracker.completions == [.finished])
  }

  @Test func zipThreeAndFour() {
    #expect(
      collectAll([1, 2].publisher.zip([3, 4].publisher, [5, 6].publisher) { $0 + $1 + $2 }).0 == [
        9, 12,
      ])
    let four = collectAll([1].publisher.zip([2].publisher, [3].publisher, [4].publisher)).0
    #expect(four.map { $0.0 + $0.1 + $0.2 + $0.3 } == [10])
  }

  @Test func zipHonoursDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    (1...5).publisher.zip((1...5).publisher) { $0 * $1 }.subscribe(tracker)
    #expect(tracker.values == [1])
    tracker.request(.max(2))
    #expect(tracker.values == [1, 4, 9])
  }

  // The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
  // here: as in Combine, a completion or a cancel releases everything.
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

  // `zip` checked against Combine's behaviour.
  /// A complete tuple goes downstream whatever the demand; demand only paces the
  /// upstreams.
  @Test func sendsCompleteTuplesRegardlessOfDemand() {
    let a = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let b = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    #expect(a.send(100) == .none)
    #expect(b.send(1) == .none)
    #expect(a.send(200) == .none)
    #expect(b.send(2) == .none)
    #expect(tracking.values == [101, 202])
  }

  /// Demand arriving during a delivery reaches the completing side as its return value
  /// and every other side as a request.
  @Test func demandDuringDeliveryIsReturnedToTheCompletingSide() {
    let first = RecordingSubscription()
    let second = RecordingSubscription()
    let a = ManualPublisher<Int, TestError>(subscription: first)
    let b = ManualPublisher<Int, TestError>(subscription: second)
    let subscription = LockedBox<(any Subscription)?>(nil)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(10)) { _ in
      subscription.withLock { $0 }?.request(.max(666))
    }
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    subscription.withLock { $0 = tracking.subscription }
    #expect(a.send(1) == .none)
    #expect(b.send(1) == .max(666))
    #expect(first.history == [.requested(.max(10)), .requested(.max(666))])
    #expect(second.history == [.requested(.max(10))])
    subscription.withLock { $0 = nil }
  }

  /// Demand the downstream returns goes back to the side that completed the tuple.
  @Test func returnedDemandGoesToTheCompletingSide() {
    let a = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let b = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let c = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, TestError>(demandPerValue: .max(1))
    defer { tracking.cancel() }
    a.zip(b, c) { $0 + $1 + $2 }.subscribe(tracking)
    #expect(a.send(1) == .none)
    #expect(b.send(1) == .none)
    #expect(c.send(1) == .max(1))
    #expect(tracking.values == [3])
  }

  /// A failure goes downstream and cancels every upstream, the failed one included.
  @Test func failureCancelsEveryUpstream() {
    let first = RecordingSubscription()
    let second = RecordingSubscription()
    let a = ManualPublisher<Int, TestError>(subscription: first)
    let b = ManualPublisher<Int, TestError>(subscription: second)
    let tracking = TrackingSubscriber<Int, TestError>()
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    a.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("Zip"), .completion(.failure(.oops))])
    #expect(first.history == [.requested(.unlimited), .cancelled])
    #expect(second.history == [.requested(.unlimited), .cancelled])
    #expect(b.send(1) == .none)
    b.send(completion: .finished)
    #expect(tracking.events.count == 2)
  }

  /// A finish that arrives during a delivery, while that side still has values queued,
  /// does not end the zip; it ends once that side runs out.
  @Test func finishWaitsForQueuedValues() {
    let a = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let second = RecordingSubscription()
    let b = ManualPublisher<Int, TestError>(subscription: second)
    let tracking = TrackingSubscriber<Int, TestError> { _ in a.send(completion: .finished) }
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    a.send(1)
    a.send(1)
    b.send(1)
    #expect(tracking.events == [.subscription("Zip"), .value(2)])
    b.send(2)
    #expect(
      tracking.events == [.subscription("Zip"), .value(2), .value(3), .completion(.finished)])
    #expect(second.history == [.requested(.unlimited), .cancelled])
  }

  /// Values sent from two threads at once all pair up, in order, with none stranded
  /// when one side queues a value just as the other's delivery ends.
  @Test func concurrentSidesPairEveryValueInOrder() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let tracking = TrackingSubscriber<Int, Never>()
    defer { tracking.cancel() }
    a.zip(b) { $0 - $1 }.subscribe(tracking)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<5_000 { (side == 0 ? a : b).send(value) }
    }
    #expect(tracking.values.count == 5_000)
    #expect(tracking.values.allSatisfy { $0 == 0 })
  }
}
