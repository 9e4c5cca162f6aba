import Foundation
import ReactiveCore
import Testing

@Suite struct TimerPublisherTests {
  @Test func ticksWhileConnected() {
    let publisher = Timer.publish(every: 0.005, on: .current, in: .default)
    #expect(publisher.interval == 0.005)
    var dates: [Date] = []
    let cancellable = publisher.sink { dates.append($0) }
    spin(upTo: 0.02) { false }
    #expect(dates.isEmpty)
    let connection = publisher.connect()
    spin { dates.count >= 2 }
    #expect(dates.count >= 2)
    connection.cancel()
    let seen = dates.count
    spin(upTo: 0.03) { false }
    #expect(dates.count == seen)
    cancellable.cancel()
  }

  @Test func subscriberWithoutDemandMissesTicks() {
    let publisher = Timer.publish(every: 0.005, on: .current, in: .default)
    let tracking = TrackingSubscriber<Date, Never>(initialDemand: .max(1))
    publisher.subscribe(tracking)
    let connection = publisher.connect()
    spin(upTo: 0.05) { false }
    #expect(tracking.values.count == 1)
    connection.cancel()
  }

  // The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
  // here: as in Combine, a completion or a cancel releases everything.
  @Test func aTimerConnectionStopsAndReleasesTheSubjectAfterThePublisherIsGone() {
    weak var weakSubject: PassthroughSubject<Date, Never>?
    var ticks = 0
    let connection: any Cancellable
    let cancellable: AnyCancellable
    do {
      let publisher = Timer.publish(every: 0.001, on: .current, in: .default)
      weakSubject =
        Mirror(reflecting: publisher).descendant("subject")
        as? PassthroughSubject<Date, Never>
      cancellable = publisher.sink { _ in ticks += 1 }
      connection = publisher.connect()
      spinRunLoop { ticks >= 1 }
    }
    #expect(weakSubject != nil)
    connection.cancel()
    let seen = ticks
    spinRunLoop(upTo: 0.02) { false }
    #expect(ticks == seen)
    cancellable.cancel()
    #expect(weakSubject == nil)
  }
}
