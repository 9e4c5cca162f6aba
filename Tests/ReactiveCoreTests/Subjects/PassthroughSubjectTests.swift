import ReactiveCore
import Testing

@Suite struct PassthroughSubjectTests {
  /// Sends through generic code, where a `Void` value's address is whatever the caller
  /// passed for it (it once was taken for "no value" and cancelled the subscriber).
  private static func send<S: Subject>(_ value: S.Output, to subject: S, times: Int) {
    for _ in 0..<times { subject.send(value) }
  }

  @Test func deliversOnlyWithinDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(2))
    subject.subscribe(tracker)
    for value in 1...5 { subject.send(value) }
    #expect(tracker.values == [1, 2])
    tracker.request(.max(1))
    subject.send(6)
    subject.send(7)
    #expect(tracker.values == [1, 2, 6])
  }

  @Test func demandReturnedFromReceiveIsHonoured() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(
      initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(tracker)
    for value in 1...4 { subject.send(value) }
    #expect(tracker.values == [1, 2, 3, 4])
  }

  @Test func completesOnceAndNothingAfter() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.values == [1])
    #expect(tracker.completions == [.failure(.oops)])
  }

  @Test func lateSubscriberGetsTheCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .finished)
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    #expect(tracker.completions == [.finished])
    #expect(tracker.values.isEmpty)
  }

  @Test func describesItsConduit() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    #expect(tracker.events.first == .subscription("PassthroughSubject"))
  }

  @Test func cancelStopsDeliveryAndIsIdempotent() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    subject.send(1)
    cancellable.cancel()
    cancellable.cancel()
    subject.send(2)
    #expect(received == [1])
  }

  @Test func cancelFromInsideDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
    _ = cancellable
  }

  @Test func reentrantSendFromSink() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { value in
      received.append(value)
      if value < 3 { subject.send(value + 1) }
    }
    subject.send(1)
    #expect(received == [1, 2, 3])
    cancellable.cancel()
  }

  @Test func multipleSubscribersEachReceive() {
    let subject = PassthroughSubject<Int, Never>()
    var first: [Int] = []
    var second: [Int] = []
    let a = subject.sink { first.append($0) }
    let b = subject.sink { second.append($0) }
    subject.send(1)
    a.cancel()
    subject.send(2)
    #expect(first == [1])
    #expect(second == [1, 2])
    b.cancel()
  }

  @Test func subscribingASubjectForwardsValues() {
    let source = PassthroughSubject<Int, Never>()
    let target = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let sink = target.sink { received.append($0) }
    let link = source.subscribe(target)
    source.send(1)
    link.cancel()
    source.send(2)
    #expect(received == [1])
    sink.cancel()
  }

  // What LeakSanitizer reported for these in tests that never cancel was the test's own
  // cycle (a ``TrackingSubscriber`` keeps its subscription): cancelled or completed, they
  // release everything, which these hold weakly.
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

  // Subjects as Combine shapes them: how their subscriptions describe themselves, what a
  // late subscriber gets, and when they ask their upstreams for values.
  @Test func subscriptionsNameTheirSubjectAlsoAfterCompletion() {
    let passthrough = PassthroughSubject<Int, TestError>()
    let tracking = TrackingSubscriber<Int, TestError>()
    passthrough.subscribe(tracking)
    passthrough.send(completion: .finished)
    #expect(tracking.events.first == .subscription("PassthroughSubject"))
    let current = CurrentValueSubject<Int, TestError>(1)
    let second = TrackingSubscriber<Int, TestError>()
    current.subscribe(second)
    current.send(completion: .finished)
    #expect(second.events.first == .subscription("CurrentValueSubject"))
  }

  @Test func passthroughAsksUpstreamOnlyOnceSomeoneHasDemand() {
    let upstream = RecordingSubscription()
    let subject = PassthroughSubject<Int, Never>()
    subject.send(subscription: upstream)
    #expect(upstream.history == [])
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(tracking)
    #expect(upstream.history == [.requested(.unlimited)])
    let later = RecordingSubscription()
    subject.send(subscription: later)
    #expect(later.history == [.requested(.unlimited)])
  }

  @Test func aSubjectCancelsItsUpstreamsWhenItGoesAway() {
    let upstream = RecordingSubscription()
    do {
      let subject = PassthroughSubject<Int, Never>()
      subject.send(subscription: upstream)
      subject.send(subscription: upstream)
    }
    #expect(upstream.history == [.cancelled, .cancelled])
  }

  // Zero demand: Combine treats it as no demand in buffering and timing operators, and
  // traps on it where it traps (here, as there, a subject subscription).
  @Test func aSubjectSubscriptionTrapsOnZeroDemand() async {
    await #expect(processExitsWith: .failure) {
      let subject = PassthroughSubject<Int, Never>()
      let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
      subject.subscribe(tracking)
      tracking.request(.none)
    }
  }

  // What subject subscriptions show in their mirror and description.
  @Test func aConduitMirrorsItsSubjectSubscriberAndDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let held = LockedBox<(any Subscription)?>(nil)
    subject.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let mirror = held.withLock { $0 }.map { Mirror(reflecting: $0) }
    #expect(mirror?.children.map(\.label) == ["parent", "downstream", "demand", "subject"])
    let parent = mirror?.children.first { $0.label == "parent" }?.value
    #expect(parent.map { "\($0)" }?.contains("PassthroughSubject") == true)
    // Break the cycle the test built (subscriber -> box -> subscription -> subscriber).
    let subscription = held.withLock { $0.take() }
    subscription?.cancel()
  }

  // Values of an empty type have no storage; a subject must deliver them like any other.
  @Test func everyVoidValueArrivesAndNothingIsCancelled() {
    let subject = PassthroughSubject<Void, Never>()
    let received = LockedBox(0)
    let cancelled = LockedBox(false)
    let cancellable = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
      .sink { received.withLock { $0 += 1 } }
    Self.send((), to: subject, times: 10_000)
    #expect(received.withLock { $0 } == 10_000)
    #expect(!cancelled.withLock { $0 })
    cancellable.cancel()
  }

  // A subject with a current value owes it to a subscriber that missed it for want of
  // demand, as Combine's `CurrentValueSubject` and `@Published` do.
  @Test func aPassthroughSubjectOwesNothing() {
    let subject = PassthroughSubject<Int, Never>()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    subject.subscribe(tracking)
    subject.send(1)
    tracking.request(.max(1))
    #expect(tracking.values == [])
  }

  /// A PassthroughSubject asks the publisher it subscribed to for values at its first
  /// downstream demand; a publisher that answers at once (a CurrentValueSubject with its
  /// current value) reaches the subscriber whose request that was, as in Combine.
  @Test func aValueAnsweringTheFirstDemandReachesTheSubscriberThatAsked() {
    let source = CurrentValueSubject<Int, Never>(1)
    let subject = PassthroughSubject<Int, Never>()
    let feeding = source.subscribe(subject)
    var values: [Int] = []
    let sink = subject.sink { values.append($0) }
    source.send(2)
    #expect(values == [1, 2])
    var later: [Int] = []
    let second = subject.sink { later.append($0) }
    source.send(3)
    #expect(values == [1, 2, 3])
    #expect(later == [3])
    for cancellable in [feeding, sink, second] { cancellable.cancel() }
  }

  /// The same, when the subscriber asks from inside its own receive(subscription:) with a
  /// finite demand, and the publisher answers from another subject.
  @Test func aFiniteFirstDemandFromReceiveSubscriptionIsAnswered() {
    let source = CurrentValueSubject<String, Never>("initial")
    let subject = PassthroughSubject<String, Never>()
    let feeding = source.subscribe(subject)
    let tracking = TrackingSubscriber<String, Never>(initialDemand: .max(1))
    subject.subscribe(tracking)
    #expect(tracking.values == ["initial"])
    source.send("dropped")  // no demand left
    #expect(tracking.values == ["initial"])
    tracking.request(.max(1))
    source.send("next")
    #expect(tracking.values == ["initial", "next"])
    feeding.cancel()
    tracking.subscription?.cancel()
  }
}
