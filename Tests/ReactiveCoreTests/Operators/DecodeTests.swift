import Foundation
import ReactiveCore
import Testing

@Suite struct DecodeTests {
  @Test func decodingGarbageFails() {
    let result = collectAll(
      Just(Data("nope".utf8)).decode(type: Point.self, decoder: JSONDecoder()))
    #expect(result.0.isEmpty)
    if case .failure = result.1.first {} else { Issue.record("expected a failure") }
  }

  // `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
  // `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
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
}
