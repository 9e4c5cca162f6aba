import ReactiveCore
import Testing

@Suite struct FlatMapTests {
  @Test func flatMapFlattensAndFinishesAfterAllInners() {
    let result = collectAll([1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher })
    #expect(result.0.sorted() == [1, 2, 3, 10, 20, 30])
    #expect(result.1 == [.finished])
  }

  @Test func flatMapLimitsConcurrentInnerPublishers() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    var requested: [Subscribers.Demand] = []
    let tracker = TrackingSubscriber<Int, Never>()
    upstream.handleEvents(receiveRequest: { requested.append($0) })
      .flatMap(maxPublishers: .max(1)) { inners[$0] }
      .subscribe(tracker)
    #expect(requested == [.max(1)])
    upstream.send(0)
    upstream.send(1)  // over the limit: a well-behaved upstream would not send it
    inners[0].send(5)
    inners[0].send(completion: .finished)
    #expect(requested == [.max(1), .max(1)])
    #expect(tracker.values.contains(5))
  }

  @Test func flatMapRequestsOneValueAtATimeFromInners() {
    var innerRequests: [Subscribers.Demand] = []
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    Just(0).flatMap { _ in
      (1...10).publisher.handleEvents(receiveRequest: { innerRequests.append($0) })
    }
    .subscribe(tracker)
    #expect(tracker.values == [1, 2])
    #expect(innerRequests.allSatisfy { $0 == .max(1) })
    #expect(innerRequests.count <= 3)
  }

  @Test func flatMapFailsWithItsInner() {
    let upstream = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    upstream.flatMap { _ in Fail<Int, TestError>(error: .oops) }.subscribe(tracker)
    upstream.send(1)
    #expect(tracker.completions == [.failure(.oops)])
  }

  // `flatMap` demand and cancellation as Combine shapes them.
  @Test func innersAreAskedForUnlimitedValuesWhenDownstreamIs() {
    let outer = PassthroughSubject<Int, Never>()
    let inner = RecordingSubscription()
    let cancellable = outer.flatMap { _ in ManualPublisher<Int, Never>(subscription: inner) }
      .sink { _ in }
    outer.send(1)
    #expect(inner.history == [.requested(.unlimited)])
    cancellable.cancel()
  }

  @Test func limitedDemandAsksEachInnerForOneValueThenUnlimitedOnceDownstreamIs() {
    let outer = PassthroughSubject<Int, Never>()
    let inner = RecordingSubscription()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    outer.flatMap { _ in ManualPublisher<Int, Never>(subscription: inner) }.subscribe(tracking)
    outer.send(1)
    #expect(inner.history == [.requested(.max(1))])
    tracking.request(.unlimited)
    #expect(inner.history == [.requested(.max(1)), .requested(.unlimited)])
  }

  @Test func theSubscriberGetsItsSubscriptionBeforeUpstreamIsSubscribed() {
    let upstream = ManualPublisher<Int, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>()
    upstream.flatMap { Just($0) }.subscribe(tracking)
    #expect(tracking.events == [.subscription("FlatMap")])
  }

  @Test func anUpstreamFailureCancelsTheInnersButNotTheUpstream() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, TestError>(subscription: upstreamSubscription)
    let inner = RecordingSubscription()
    let tracking = TrackingSubscriber<Int, TestError>()
    upstream.flatMap { _ in ManualPublisher<Int, TestError>(subscription: inner) }
      .subscribe(tracking)
    upstream.send(1)
    upstream.send(completion: .failure(.oops))
    #expect(upstreamSubscription.history == [.requested(.unlimited)])
    #expect(inner.history == [.requested(.unlimited), .cancelled])
    #expect(tracking.completions == [.failure(.oops)])
  }

  /// Combine cancels neither upstream nor the inner publisher that failed (OpenCombine's
  /// testAllSubscriptionsReleasedOnChildFailure, run against Combine).
  @Test func anInnerFailureCancelsNeitherUpstreamNorThatInner() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, TestError>(subscription: upstreamSubscription)
    let inner = RecordingSubscription()
    let innerPublisher = ManualPublisher<Int, TestError>(subscription: inner)
    let tracking = TrackingSubscriber<Int, TestError>()
    upstream.flatMap { _ in innerPublisher }.subscribe(tracking)
    upstream.send(1)
    innerPublisher.send(completion: .failure(.oops))
    #expect(upstreamSubscription.history == [.requested(.unlimited)])
    #expect(inner.history == [.requested(.unlimited)])
    #expect(tracking.completions == [.failure(.oops)])
  }

  /// A value delivered at once returns `.max(1)` to its inner publisher; one that finds no
  /// demand waits, returns nothing, and its publisher is asked for one more when it goes.
  @Test func innerDemandFollowsDeliveriesAsInCombine() {
    let outer = PassthroughSubject<Int, Never>()
    let inner = RecordingSubscription()
    let innerPublisher = ManualPublisher<Int, Never>(subscription: inner)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    outer.flatMap { _ in innerPublisher }.subscribe(tracking)
    outer.send(1)
    #expect(innerPublisher.send(10) == .max(1))
    #expect(innerPublisher.send(11) == .max(1))
    #expect(innerPublisher.send(12) == .none)
    #expect(innerPublisher.send(13) == .none)
    #expect(tracking.values == [10, 11])
    tracking.request(.max(10))
    #expect(tracking.values == [10, 11, 12, 13])
    #expect(inner.history == [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
  }

  /// A request from inside a delivery adds demand without recursing; later values use it.
  @Test func aRequestFromInsideADeliveryDoesNotRecurse() {
    let upstream = ManualPublisher<ManualPublisher<Int, Never>, Never>(
      subscription: RecordingSubscription())
    let inner = RecordingSubscription()
    let child = ManualPublisher<Int, Never>(subscription: inner)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    let subscriptionBox = LockedBox<(any Subscription)?>(nil)
    upstream.flatMap(maxPublishers: .max(1)) { $0 }
      .handleEvents(
        receiveSubscription: { subscription in subscriptionBox.withLock { $0 = subscription } },
        receiveOutput: { value in
          if value == 0 { subscriptionBox.withLock { $0 }?.request(.max(3)) }
        }
      )
      .subscribe(tracking)
    _ = upstream.send(child)
    for value in 0..<4 { #expect(child.send(value) == .max(1)) }
    #expect(child.send(4) == .none)
    #expect(tracking.values == [0, 1, 2, 3])
    #expect(inner.history == [.requested(.max(1))])
    subscriptionBox.withLock { $0 = nil }
  }

  /// The buffered values wait for demand even after everything finished; then they go,
  /// and the completion after them.
  @Test func bufferedValuesGoBeforeTheCompletion() {
    let outer = PassthroughSubject<Void, Never>()
    let child = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    outer.flatMap { _ in child }.subscribe(tracking)
    outer.send()
    #expect(child.send(1) == .max(1))
    #expect(child.send(2) == .none)
    outer.send(completion: .finished)
    child.send(completion: .finished)
    #expect(tracking.events == [.subscription("FlatMap"), .value(1)])
    tracking.request(.unlimited)
    #expect(
      tracking.events == [.subscription("FlatMap"), .value(1), .value(2), .completion(.finished)])
  }

  /// Each inner subscriber names the subscription it reports to, as Combine's.
  @Test func theInnerSubscriberMirrorsItsParentSubscription() throws {
    let upstream = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let child = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>()
    upstream.flatMap { _ in child }.subscribe(tracking)
    _ = upstream.send(0)
    let inner = try #require(child.rawSubscriber)
    let outer = try #require(upstream.rawSubscriber as? any CustomCombineIdentifierConvertible)
    #expect("\(inner)" == "FlatMap")
    let children = Mirror(reflecting: inner).children
    #expect(children.map(\.label) == ["parentSubscription"])
    #expect("\(children.first!.value)" == "\(outer.combineIdentifier)")
    #expect(Mirror(reflecting: tracking.subscription!).children.isEmpty)
  }

  /// Combine cancels the inners with its lock held when upstream fails; an inner whose
  /// cancel makes upstream fail again deadlocks there, and traps here.
  @Test func anUpstreamFailingAgainFromAnInnerCancelTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      let child = ManualPublisher<Int, TestError>(
        subscription: RecordingSubscription(onCancel: { upstream.send(completion: .failure(.oops)) }
        ))
      let tracking = TrackingSubscriber<Int, TestError>()
      upstream.flatMap { _ in child }.subscribe(tracking)
      _ = upstream.send(0)
      upstream.send(completion: .failure(.oops))
    }
  }

  /// Combine leaves upstream subscribed after an inner failure; a later cancel lets it go,
  /// so that a subject upstream does not keep the subscription and its subscriber.
  @Test func aCancelAfterAnInnerFailureReleasesUpstreamAndTheSubscriber() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, TestError>(subscription: upstreamSubscription)
    let tracking = TrackingSubscriber<Int, TestError>()
    upstream.flatMap { _ in Fail<Int, TestError>(error: .oops) }.subscribe(tracking)
    upstream.send(1)
    #expect(upstreamSubscription.history == [.requested(.unlimited)])
    tracking.cancel()
    #expect(upstreamSubscription.history == [.requested(.unlimited), .cancelled])

    weak var weakTracking: TrackingSubscriber<Int, TestError>?
    do {
      let subject = PassthroughSubject<Int, TestError>()
      let tracking = TrackingSubscriber<Int, TestError>()
      weakTracking = tracking
      subject.flatMap { _ in Fail<Int, TestError>(error: .oops) }.subscribe(tracking)
      subject.send(1)
      tracking.cancel()
    }
    #expect(weakTracking == nil)
  }
}
