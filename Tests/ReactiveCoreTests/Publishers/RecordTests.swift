import Foundation
import ReactiveCore
import Testing

private struct RecordedError: Error, Codable {}

@Suite struct RecordTests {
  @Test func recordReplaysOutputAndCompletion() {
    let record = Record<Int, TestError> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(completion: .failure(.oops))
    }
    #expect(record.recording.output == [1, 2])
    let tracker = TrackingSubscriber<Int, TestError>()
    record.subscribe(tracker)
    #expect(tracker.values == [1, 2])
    #expect(tracker.completions == [.failure(.oops)])
  }

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
  @Test func recordEncodesAsCombineDoes() throws {
    let record = Record<Int, RecordedError>(output: [1], completion: .finished)
    let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    #expect(json.contains(#""recording":{"#))
    let decoded = try JSONDecoder().decode(Record<Int, RecordedError>.self, from: Data(json.utf8))
    #expect(decoded.recording.output == [1])
  }

  // A record subscription mirrors its sequence and its completion, as Combine's.
  @Test func aRecordSubscriptionMirrorsItsCompletion() {
    let held = LockedBox<(any Subscription)?>(nil)
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let subscription = held.withLock { $0 }
    let labels = subscription.map { Mirror(reflecting: $0).children.map(\.label) }
    #expect(labels == ["sequence", "completion"])
    subscription?.cancel()
    held.withLock { $0 = nil }
  }
}
