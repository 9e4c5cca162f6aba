import Foundation
import ReactiveCore
import Testing

@Suite struct EncodeTests {
  @Test func encodeThenDecodeRoundTrips() {
    let result = collectAll(
      Just(Point(x: 4)).encode(encoder: JSONEncoder()).decode(
        type: Point.self, decoder: JSONDecoder()))
    #expect(result.0 == [Point(x: 4)])
  }

  // `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
  // `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
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
}
