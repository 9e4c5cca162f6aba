import ReactiveCore
import Testing

/// `flatMap` demand and cancellation as Combine shapes them.
@Suite struct FlatMapCombineTests {
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

  @Test func anInnerFailureCancelsTheUpstreamButNotThatInner() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, TestError>(subscription: upstreamSubscription)
    let inner = RecordingSubscription()
    let innerPublisher = ManualPublisher<Int, TestError>(subscription: inner)
    let tracking = TrackingSubscriber<Int, TestError>()
    upstream.flatMap { _ in innerPublisher }.subscribe(tracking)
    upstream.send(1)
    innerPublisher.send(completion: .failure(.oops))
    #expect(upstreamSubscription.history == [.requested(.unlimited), .cancelled])
    #expect(inner.history == [.requested(.unlimited)])
  }
}
