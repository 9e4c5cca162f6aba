import ReactiveCore
import Testing

@Suite struct LeakTests {
  @Test func cancellingASinkReleasesItsClosures() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.map { $0 + 1 }.sink { _ in _ = token }
    }
    #expect(weakToken != nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
  }

  @Test func completingReleasesClosures() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.filter { _ in true }.sink(
        receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    subject.send(completion: .finished)
    #expect(weakToken == nil)
    _ = cancellable
  }

  @Test func droppingTheCancellableCancels() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    do {
      let cancellable = subject.sink { received.append($0) }
      subject.send(1)
      _ = cancellable
    }
    subject.send(2)
    #expect(received == [1])
  }

  @Test func anyCancellableReleasesItsClosureAfterCancel() {
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = AnyCancellable { _ = token }
    }
    cancellable?.cancel()
    #expect(weakToken == nil)
  }

  @Test func futureReleasesSubscriberAfterDelivery() {
    weak var weakToken: Token?
    let future = Future<Int, Never> { $0(.success(1)) }
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = future.sink { _ in _ = token }
    }
    #expect(weakToken == nil)
    _ = cancellable
  }
}
