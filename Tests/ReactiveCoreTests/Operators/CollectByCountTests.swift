import ReactiveCore
import Testing

@Suite struct CollectByCountTests {
  @Test func collectByCountScalesDemand() {
    let tracker = TrackingSubscriber<[Int], Never>(initialDemand: .max(1))
    (1...7).publisher.collect(3).subscribe(tracker)
    #expect(tracker.values == [[1, 2, 3]])
    tracker.request(.max(2))
    #expect(tracker.values == [[1, 2, 3], [4, 5, 6], [7]])
    #expect(tracker.completions == [.finished])
  }

  // `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
  // `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
  // MARK: collect(_:)
  @Test func collectByCountScalesDemandAndPublishesTheRestOnFinish() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(1))
    publisher.collect(3).subscribe(tracking)
    #expect(upstream.history == [.requested(.max(6))])
    #expect(publisher.send(1) == .none)
    #expect(publisher.send(2) == .none)
    #expect(publisher.send(3) == .max(3))
    publisher.send(4)
    publisher.send(completion: .finished)
    #expect(
      tracking.events == [
        .subscription("CollectByCount"), .value([1, 2, 3]), .value([4]), .completion(.finished),
      ])
  }

  @Test func collectByCountPassesACompletionEvenAfterACancel() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<[Int], Never>()
    publisher.collect(4).subscribe(tracking)
    publisher.send(1)
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    publisher.send(completion: .finished)
    // The buffer went with the cancel, but the completion still goes out, as in Combine.
    #expect(tracking.events == [.subscription("CollectByCount"), .completion(.finished)])
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
  }

  @Test func collectByCountMirrorShowsItsState() throws {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<[Int], Never>()
    publisher.collect(5).subscribe(tracking)
    let inner = try #require(publisher.rawSubscriber)
    let labels = Mirror(reflecting: inner).children.map(\.label)
    #expect(labels == ["downstream", "upstreamSubscription", "buffer", "count"])
    tracking.cancel()
  }
}
