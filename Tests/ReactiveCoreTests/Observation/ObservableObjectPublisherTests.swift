import ReactiveCore
import Testing

/// `objectWillChange` is a signal: from the first request on, every send arrives whatever
/// the demand, as Combine's `ObservableObjectPublisher`.
@Suite struct ObservableObjectPublisherTests {
  /// An `Equatable` stand-in for `Void`.
  struct Signal: Equatable {}

  @Test func everySendArrivesAfterTheFirstRequest() {
    let publisher = ObservableObjectPublisher()
    let signals = LockedBox(0)
    let subscription = LockedBox<(any Subscription)?>(nil)
    let subscriber = AnySubscriber<Void, Never>(
      receiveSubscription: { held in
        subscription.withLock { $0 = held }
        held.request(.max(1))
      },
      receiveValue: { _ in
        signals.withLock { $0 += 1 }
        return .none
      })
    publisher.subscribe(subscriber)
    for _ in 0..<3 { publisher.send() }
    #expect(signals.withLock { $0 } == 3)
    // The publisher keeps its subscription until a cancel, as a subject does.
    subscription.withLock { $0.take() }?.cancel()
  }

  @Test func nothingArrivesBeforeARequestOrAfterACancel() throws {
    let publisher = ObservableObjectPublisher()
    let tracking = TrackingSubscriber<Signal, Never>(initialDemand: nil)
    publisher.map { Signal() }.subscribe(tracking)
    publisher.send()
    #expect(tracking.values.isEmpty)
    tracking.request(.max(1))
    publisher.send()
    publisher.send()
    #expect(tracking.values.count == 2)
    let subscription = try #require(tracking.subscription)
    #expect(Mirror(reflecting: subscription).children.isEmpty == false)
    tracking.cancel()
    publisher.send()
    #expect(tracking.values.count == 2)
  }
}
