import ReactiveCore
import Testing

@Suite struct AutoconnectTests {
  @Test func makeConnectableAndAutoconnect() {
    let subject = PassthroughSubject<Int, Never>()
    var subscriptions = 0
    var cancels = 0
    let shared =
      subject
      .handleEvents(
        receiveSubscription: { _ in subscriptions += 1 }, receiveCancel: { cancels += 1 }
      )
      .makeConnectable()
      .autoconnect()
    var a: [Int] = []
    let first = shared.sink { a.append($0) }
    #expect(subscriptions == 1)
    subject.send(1)
    first.cancel()
    #expect(cancels == 1)
    subject.send(2)
    #expect(a == [1])
  }
}
