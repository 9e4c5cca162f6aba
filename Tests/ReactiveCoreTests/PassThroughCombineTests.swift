import Foundation
import ReactiveCore
import Testing

/// `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
/// `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
@Suite struct PassThroughCombineTests {
  /// A value that encodes to JSON.
  struct Point: Codable, Equatable {
    var x: Int
  }

  // MARK: encode / decode

  @Test func encodePassesValuesAndCompletionsThatArriveBeforeItsSubscription() throws {
    let publisher = ManualPublisher<Point, Never>(subscription: nil)
    let received = LockedBox<[String]>([])
    let finished = LockedBox(false)
    let cancellable = publisher.encode(encoder: JSONEncoder()).sink(
      receiveCompletion: { _ in finished.withLock { $0 = true } },
      receiveValue: { data in received.withLock { $0.append(String(decoding: data, as: UTF8.self)) }
      }
    )
    // Combine's coders only track whether they finished, so these still go through.
    publisher.send(Point(x: 1))
    publisher.send(completion: .finished)
    #expect(received.withLock { $0 } == [#"{"x":1}"#])
    #expect(finished.withLock { $0 })
    // After the end, a late subscription is refused.
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.cancelled])
    cancellable.cancel()
  }

  @Test func encodeCancelBeforeItsSubscriptionDoesNothing() {
    let publisher = ManualPublisher<Point, Never>(subscription: nil)
    let cancellable = publisher.encode(encoder: JSONEncoder()).sink(
      receiveCompletion: { _ in }, receiveValue: { _ in })
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.requested(.unlimited)])
    cancellable.cancel()
    #expect(late.history == [.requested(.unlimited), .cancelled])
  }

  @Test func decodeFailureCancelsUpstreamAndFailsOnce() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Data, Never>(subscription: upstream)
    let failures = LockedBox(0)
    let cancellable = publisher.decode(type: Point.self, decoder: JSONDecoder()).sink(
      receiveCompletion: { completion in
        if case .failure = completion { failures.withLock { $0 += 1 } }
      },
      receiveValue: { _ in })
    publisher.send(Data("not json".utf8))
    publisher.send(completion: .finished)
    #expect(failures.withLock { $0 } == 1)
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    cancellable.cancel()
  }

  @Test func codingMirrorShowsDownstreamFinishedAndUpstream() throws {
    let publisher = ManualPublisher<Point, Never>(subscription: RecordingSubscription())
    let cancellable = publisher.encode(encoder: JSONEncoder()).sink(
      receiveCompletion: { _ in }, receiveValue: { _ in })
    let inner = try #require(publisher.rawSubscriber)
    #expect(String(describing: inner) == "Encode")
    let labels = Mirror(reflecting: inner).children.map(\.label)
    #expect(labels == ["downstream", "finished", "upstreamSubscription"])
    cancellable.cancel()
  }

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

  // MARK: replaceEmpty(with:)

  @Test func replaceEmptyAsksUpstreamForEverythingAfterDownstreamsRequest() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.replaceEmpty(with: 9).subscribe(tracking)
    #expect(upstream.history == [.requested(.max(2)), .requested(.unlimited)])
    tracking.cancel()
  }

  @Test func replaceEmptyWaitsForARequestAndPublishesTheReplacementOnce() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.replaceEmpty(with: 9).subscribe(tracking)
    publisher.send(completion: .finished)
    #expect(tracking.events == [.subscription("ReplaceEmpty")])
    tracking.request(.max(1))
    tracking.request(.max(1))
    #expect(tracking.events == [.subscription("ReplaceEmpty"), .value(9), .completion(.finished)])
  }

  @Test func replaceEmptyIgnoresACompletionBeforeItsSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>()
    publisher.replaceEmpty(with: 9).subscribe(tracking)
    publisher.send(completion: .finished)
    #expect(tracking.events.isEmpty)
  }

  // MARK: replaceError(with:)

  @Test func replaceErrorTrapsOnAValueWithoutPendingDemand() async {
    await #expect(processExitsWith: .failure) {
      let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      publisher.replaceError(with: 0).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
      publisher.send(1)
    }
  }

  @Test func replaceErrorWaitsForDemandAndPublishesTheReplacementOnce() {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    publisher.replaceError(with: 0).subscribe(tracking)
    publisher.send(1)
    publisher.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("ReplaceError"), .value(1)])
    tracking.request(.max(1))
    tracking.request(.max(1))
    #expect(
      tracking.events == [
        .subscription("ReplaceError"), .value(1), .value(0), .completion(.finished),
      ])
  }

  @Test func replaceErrorCancelBeforeItsSubscriptionDoesNothing() {
    let publisher = ManualPublisher<Int, TestError>(subscription: nil)
    publisher.replaceError(with: 0).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [])
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    #expect(late.history == [.cancelled])
  }
}
