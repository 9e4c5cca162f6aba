import ReactiveCore
import Testing

@Suite struct AnyCancellableTests {
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
}
