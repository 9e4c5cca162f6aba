import ReactiveCore
import Testing

@Suite struct SharingTests {
  @Test func multicastWaitsForConnect() {
    let multicast = [1, 2].publisher.multicast { PassthroughSubject<Int, Never>() }
    var a: [Int] = []
    var b: [Int] = []
    let first = multicast.sink { a.append($0) }
    let second = multicast.sink { b.append($0) }
    #expect(a.isEmpty)
    let connection = multicast.connect()
    #expect(a == [1, 2])
    #expect(b == [1, 2])
    connection.cancel()
    first.cancel()
    second.cancel()
  }

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

  @Test func shareSubscribesUpstreamOnce() {
    var runs = 0
    let shared = Deferred { () -> PassthroughSubject<Int, Never> in
      runs += 1
      return PassthroughSubject()
    }.share()
    let a = shared.sink { _ in }
    let b = shared.sink { _ in }
    #expect(runs == 1)
    #expect(shared == shared)
    a.cancel()
    b.cancel()
  }

  @Test func shareDeliversToEverySubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.map { $0 * 2 }.share()
    var a: [Int] = []
    var b: [Int] = []
    let first = shared.sink { a.append($0) }
    let second = shared.sink { b.append($0) }
    subject.send(1)
    subject.send(2)
    #expect(a == [2, 4])
    #expect(b == [2, 4])
    first.cancel()
    second.cancel()
  }

  @Test(arguments: [(false, [1, 2, 3]), (true, [3, 4, 5])])
  func bufferHoldsValuesUntilDemand(dropsOldest: Bool, expected: [Int]) {
    let strategy: Publishers.BufferingStrategy<Never> = dropsOldest ? .dropOldest : .dropNewest
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
    subject.buffer(size: 3, prefetch: .byRequest, whenFull: strategy).subscribe(tracker)
    for value in 1...5 { subject.send(value) }
    #expect(tracker.values.isEmpty)
    tracker.request(.max(10))
    #expect(tracker.values == expected)
  }

  @Test func bufferKeepFullRequestsAhead() {
    var requested: [Subscribers.Demand] = []
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    (1...10).publisher.handleEvents(receiveRequest: { requested.append($0) })
      .buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
      .subscribe(tracker)
    #expect(requested.first == .max(2))
    #expect(tracker.values == [1])
    tracker.request(.max(2))
    #expect(tracker.values == [1, 2, 3])
  }

  @Test func bufferCustomErrorFails() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    subject.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .oops }).subscribe(
      tracker)
    subject.send(1)
    subject.send(2)
    tracker.request(.max(5))
    #expect(tracker.completions == [.failure(.oops)])
  }
}
