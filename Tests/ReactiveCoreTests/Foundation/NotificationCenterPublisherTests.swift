import Foundation
import ReactiveCore
import Testing

@Suite struct NotificationCenterPublisherTests {
  static let name = Notification.Name("ripple.test")

  @Test func publishesPostedNotifications() {
    let center = NotificationCenter()
    let publisher = center.publisher(for: Self.name)
    #expect(publisher.name == Self.name)
    let tracking = TrackingSubscriber<Notification, Never>()
    publisher.subscribe(tracking)
    center.post(name: Self.name, object: nil)
    center.post(name: Notification.Name("other"), object: nil)
    center.post(name: Self.name, object: nil)
    #expect(tracking.values.count == 2)
    #expect(tracking.events.first == .subscription("NotificationCenter Observer"))
  }

  @Test func filtersByObject() {
    let center = NotificationCenter()
    let sender = Token()
    var count = 0
    let cancellable = center.publisher(for: Self.name, object: sender).sink { _ in count += 1 }
    center.post(name: Self.name, object: Token())
    center.post(name: Self.name, object: sender)
    #expect(count == 1)
    cancellable.cancel()
  }

  @Test func demandOfOneAtATime() {
    let center = NotificationCenter()
    let tracking = TrackingSubscriber<Notification, Never>(initialDemand: .max(1))
    center.publisher(for: Self.name).subscribe(tracking)
    center.post(name: Self.name, object: nil)
    center.post(name: Self.name, object: nil)
    #expect(tracking.values.count == 1)
    tracking.request(.max(1))
    center.post(name: Self.name, object: nil)
    #expect(tracking.values.count == 2)
  }

  @Test func cancelRemovesTheObserverAndReleases() {
    let center = NotificationCenter()
    weak var weakToken: Token?
    var count = 0
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = center.publisher(for: Self.name).sink { _ in
        _ = token
        count += 1
      }
    }
    center.post(name: Self.name, object: nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
    center.post(name: Self.name, object: nil)
    #expect(count == 1)
  }

  @Test func reentrantPostFromTheSubscriber() {
    let center = NotificationCenter()
    var count = 0
    let cancellable = center.publisher(for: Self.name).sink { _ in
      count += 1
      if count == 1 { center.post(name: Self.name, object: nil) }
    }
    center.post(name: Self.name, object: nil)
    #expect(count == 2)
    cancellable.cancel()
  }
}
