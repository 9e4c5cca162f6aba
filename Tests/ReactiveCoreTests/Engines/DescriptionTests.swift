// Cross-cutting: every operator's subscriber describes itself as Combine's does.

import ReactiveCore
import Testing

/// A publisher that records how the subscriber attached to it describes itself.
private final class RecordingPublisher: Publisher, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = Never
  var subscriberDescriptions: [String] = []

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriberDescriptions.append(String(describing: subscriber))
    subscriber.receive(subscription: Subscriptions.empty)
  }
}

@Suite struct DescriptionTests {
  @Test func operatorsDescribeThemselvesAsCombineDoes() {
    let cases: [(String, (RecordingPublisher) -> Void)] = [
      ("Map", { _ = $0.map { $0 }.sink { _ in } }),
      ("Filter", { _ = $0.filter { _ in true }.sink { _ in } }),
      ("CompactMap", { _ = $0.compactMap { $0 }.sink { _ in } }),
      ("Scan", { _ = $0.scan(0, +).sink { _ in } }),
      ("RemoveDuplicates", { _ = $0.removeDuplicates().sink { _ in } }),
      (
        "TryMap", { _ = $0.tryMap { $0 }.sink(receiveCompletion: { _ in }, receiveValue: { _ in }) }
      ),
      ("Reduce", { _ = $0.reduce(0, +).sink { _ in } }),
      ("First", { _ = $0.first().sink { _ in } }),
      ("Sink", { _ = $0.sink { _ in } }),
    ]
    for (name, attach) in cases {
      let publisher = RecordingPublisher()
      attach(publisher)
      #expect(publisher.subscriberDescriptions == [name])
    }
  }
}
