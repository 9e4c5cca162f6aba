import ReactiveCore
import Testing

@Suite struct AsyncSequencePublisherTests {
  @Test func asyncSequenceBecomesAPublisher() async {
    let stream = AsyncStream<Int> { continuation in
      for value in 1...3 { continuation.yield(value) }
      continuation.finish()
    }
    var received: [Int] = []
    for await value in stream.publisher.replaceError(with: -1).values { received.append(value) }
    #expect(received == [1, 2, 3])
  }
}
