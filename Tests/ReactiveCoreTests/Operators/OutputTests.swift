import ReactiveCore
import Testing

@Suite struct OutputTests {
  // `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
  // `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
  // MARK: output(in:) / prefix(_:)
  @Test func outputFinishesWithTheLastValueOfItsRange() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<Int, Never>(demandPerValue: .max(7))
    publisher.output(in: 1..<3).subscribe(tracking)
    #expect(publisher.send(0) == .max(1))
    #expect(publisher.send(1) == .max(7))
    #expect(tracking.completions.isEmpty)
    #expect(publisher.send(2) == .max(7))
    #expect(
      tracking.events == [.subscription("Output"), .value(1), .value(2), .completion(.finished)])
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    #expect(publisher.send(3) == .none)
    #expect(tracking.values == [1, 2])
  }

  @Test func outputCountsValuesThatArriveBeforeItsSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>(demandPerValue: .max(1))
    publisher.prefix(1).subscribe(tracking)
    publisher.send(completion: .finished)
    // In the range, so it passes; with no subscription to cancel, nothing ends.
    #expect(publisher.send(1) == .max(1))
    #expect(publisher.send(2) == .none)
    #expect(tracking.events == [.value(1)])
    let upstream = RecordingSubscription()
    publisher.send(subscription: upstream)
    // The range is used up, so the next value ends the stream.
    publisher.send(3)
    #expect(tracking.events == [.value(1), .subscription("Output"), .completion(.finished)])
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
  }

  @Test func outputCancelBeforeItsSubscriptionDoesNothing() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    publisher.output(at: 2).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [])
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    #expect(late.history == [.cancelled])
  }

  @Test func outputTrapsOnANegativeUpperBound() async {
    await #expect(processExitsWith: .failure) {
      _ = Publishers.Output(
        upstream: Empty<Int, Never>(), range: Range(uncheckedBounds: (lower: 1, upper: -1)))
    }
  }

  @Test func outputKeepsItsDownstreamAfterACancel() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    weak var weakTracking: TrackingSubscriber<Int, Never>?
    do {
      let tracking = TrackingSubscriber<Int, Never>()
      weakTracking = tracking
      publisher.prefix(2).subscribe(tracking)
      tracking.cancel()
    }
    // Combine's operator holds its subscriber for life; the publisher holds the operator.
    #expect(weakTracking != nil)
    publisher.releaseSubscriber()
    #expect(weakTracking == nil)
  }
}
