import ReactiveCore
import Testing

@Suite struct MulticastTests {
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

  // `multicast` and `makeConnectable` hand each subscriber a subscription of their own.
  @Test func subscribersSeeAMulticastSubscriptionThatAsksTheSubjectForMore() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    multicast.subscribe(tracking)
    let connection = multicast.connect()
    upstream.send(1)
    upstream.send(2)
    #expect(tracking.events == [.subscription("Multicast"), .value(1), .value(2)])
    connection.cancel()
  }

  /// The subscriber that connects a subject to its upstream holds the subject weakly, as
  /// Combine's does: the subject keeps that subscriber, so a strong reference would be a
  /// cycle keeping a dropped subject alive (OpenCombine issue 186).
  @Test func aConnectionDoesNotKeepItsSubjectAlive() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let connection: any Cancellable
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      connection = publisher.multicast(subject: subject).connect()
    }
    #expect(weakSubject == nil)
    publisher.send(1)
    connection.cancel()
  }
}
