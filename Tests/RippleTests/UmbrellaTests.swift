import Ripple
import Testing

@Suite struct UmbrellaTests {
  @Test func reexportsReactiveCore() {
    var received: [Int] = []
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.sink { received.append($0) }
    subject.send(1)
    cancellable.cancel()
    subject.send(2)
    #expect(received == [1])
  }
}
