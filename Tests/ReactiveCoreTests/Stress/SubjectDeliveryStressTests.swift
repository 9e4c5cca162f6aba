import Dispatch
import ReactiveCore
import Synchronization
import Testing

/// The race windows of a subject's one-lock delivery path: atomic demand, the owed
/// current value, and a subscriber released by the last delivery after a cancel. CI runs
/// these under the thread sanitizer and the address sanitizer.
@Suite struct SubjectDeliveryStressTests {
  /// A subscriber that counts its deliveries, notices overlapping ones, and holds a token
  /// so a test can see when it is released.
  final class CountingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let initialDemand: Subscribers.Demand
    let token = Token()
    let received = Atomic<Int>(0)
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let subscription = LockedBox<(any Subscription)?>(nil)

    init(initialDemand: Subscribers.Demand) { self.initialDemand = initialDemand }

    func receive(subscription: any Subscription) {
      self.subscription.withLock { $0 = subscription }
      if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      withExtendedLifetime(token) { _ = received.add(1, ordering: .relaxed) }
      inside.subtract(1, ordering: .sequentiallyConsistent)
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func cancel() { subscription.withLock { $0 }?.cancel() }
  }

  @Test(arguments: [1, 7, 1_000])
  func limitedDemandIsNeverExceededByConcurrentSenders(demand: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = CountingSubscriber(initialDemand: .max(demand))
    subject.subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for value in 0..<2_000 { subject.send(value) }
    }
    #expect(subscriber.received.load(ordering: .relaxed) == demand)
    #expect(subscriber.overlaps.load(ordering: .relaxed) == 0)
    subscriber.cancel()
  }

  @Test func demandRequestedFromAnotherThreadIsAllSpent() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = CountingSubscriber(initialDemand: .none)
    subject.subscribe(subscriber)
    let sent = Atomic<Bool>(false)
    DispatchQueue.concurrentPerform(iterations: 3) { index in
      if index == 0 {
        for _ in 0..<500 { subscriber.subscription.withLock { $0 }?.request(.max(1)) }
      } else {
        // Bounded, so that lost demand fails the test instead of hanging it.
        for _ in 0..<5_000_000 where !sent.load(ordering: .relaxed) {
          subject.send(index)
          if subscriber.received.load(ordering: .relaxed) == 500 {
            sent.store(true, ordering: .relaxed)
          }
        }
      }
    }
    subject.send(0)
    #expect(subscriber.received.load(ordering: .relaxed) == 500)
    subscriber.cancel()
  }

  /// A cancel on one thread while others deliver: the subscriber stays alive until the
  /// last delivery returns, and is released then.
  @Test func cancelRacingWithDeliveriesReleasesTheSubscriberAfterTheLastOne() {
    for _ in 0..<300 {
      let subject = PassthroughSubject<Int, Never>()
      var subscriber: CountingSubscriber? = CountingSubscriber(initialDemand: .unlimited)
      weak let weakSubscriber = subscriber
      subject.subscribe(subscriber!)
      let subscription = LockedBox(subscriber!.subscription.withLock { $0 })
      subscriber!.subscription.withLock { $0 = nil }
      subscriber = nil
      DispatchQueue.concurrentPerform(iterations: 3) { index in
        if index == 0 {
          subscription.withLock { $0 }?.cancel()
        } else {
          for value in 0..<50 { subject.send(value) }
        }
      }
      #expect(weakSubscriber == nil)
    }
  }

  /// A current-value subject owes the value it could not deliver to the next request,
  /// also when values and requests race.
  @Test func anOwedCurrentValueArrivesOnceWhenRequestsRaceWithSends() {
    for _ in 0..<200 {
      let subject = CurrentValueSubject<Int, Never>(-1)
      let subscriber = CountingSubscriber(initialDemand: .none)
      subject.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 3) { index in
        if index == 0 {
          for _ in 0..<20 { subscriber.subscription.withLock { $0 }?.request(.max(1)) }
        } else {
          for value in 0..<100 { subject.send(value) }
        }
      }
      // Requests that came after the last send left demand outstanding: spend it.
      for value in 100..<125 where subscriber.received.load(ordering: .relaxed) < 20 {
        subject.send(value)
      }
      subject.send(-2)
      #expect(subscriber.received.load(ordering: .relaxed) == 20)
      #expect(subscriber.overlaps.load(ordering: .relaxed) == 0)
      subscriber.cancel()
    }
  }

  @Test func mergeFromSeveralThreadsDeliversEverythingWithoutOverlap() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let subscriber = CountingSubscriber(initialDemand: .unlimited)
    a.merge(with: b).subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      for value in 0..<20_000 { (index.isMultiple(of: 2) ? a : b).send(value) }
    }
    #expect(subscriber.received.load(ordering: .relaxed) == 80_000)
    #expect(subscriber.overlaps.load(ordering: .relaxed) == 0)
    subscriber.cancel()
  }

  @Test func combineLatestFromSeveralThreadsNeverOverlapsAndLetsGoOnCancel() {
    for _ in 0..<100 {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let inside = Atomic<Int>(0)
      let overlaps = Atomic<Int>(0)
      let token = Token()
      weak let weakToken = token
      let cancellable = a.combineLatest(b).sink { [token] _ in
        if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
          overlaps.add(1, ordering: .relaxed)
        }
        withExtendedLifetime(token) {}
        inside.subtract(1, ordering: .sequentiallyConsistent)
      }
      _ = consume token
      DispatchQueue.concurrentPerform(iterations: 3) { index in
        switch index {
        case 0: for value in 0..<200 { a.send(value) }
        case 1: for value in 0..<200 { b.send(value) }
        default: cancellable.cancel()
        }
      }
      #expect(overlaps.load(ordering: .relaxed) == 0)
      #expect(weakToken == nil)
    }
  }
}
