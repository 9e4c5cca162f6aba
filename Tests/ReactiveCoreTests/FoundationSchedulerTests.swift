import Foundation
import ReactiveCore
import Testing

/// Runs the current run loop until `done()` holds or `limit` seconds pass.
private func spin(upTo limit: TimeInterval = 5, until done: () -> Bool) {
  let deadline = Date().addingTimeInterval(limit)
  while !done(), Date() < deadline {
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
}

@Suite struct FoundationSchedulerTests {
  @Test func runLoopStrideAndTime() {
    let stride: RunLoop.SchedulerTimeType.Stride = .milliseconds(1_500)
    #expect(stride.timeInterval == 1.5)
    #expect(RunLoop.SchedulerTimeType.Stride.seconds(2) == 2.0)
    #expect(RunLoop.SchedulerTimeType.Stride.nanoseconds(500_000_000) == 0.5)
    let start = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 0))
    #expect(start.advanced(by: 2.5).date == Date(timeIntervalSince1970: 2.5))
    #expect(start.distance(to: start.advanced(by: .seconds(3))) == 3.0)
    let queueStride: OperationQueue.SchedulerTimeType.Stride = .microseconds(250)
    #expect(queueStride.magnitude == 0.00025)
  }

  @Test func runLoopRunsScheduledActions() {
    let runLoop = RunLoop.current
    var log: [String] = []
    runLoop.schedule { log.append("now") }
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(1))) { log.append("later") }
    spin { log.count == 2 }
    #expect(log == ["now", "later"])
  }

  @Test func runLoopRepeatingActionStopsWhenCancelled() {
    let runLoop = RunLoop.current
    var ticks = 0
    let cancellable = runLoop.schedule(
      after: runLoop.now, interval: .milliseconds(1)
    ) { ticks += 1 }
    spin { ticks >= 2 }
    cancellable.cancel()
    let seen = ticks
    spin(upTo: 0.05) { false }
    #expect(seen >= 2)
    #expect(ticks == seen)
  }

  @Test func operationQueueRunsScheduledActions() async {
    let queue = OperationQueue()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.schedule { continuation.resume() }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.schedule(after: queue.now.advanced(by: .milliseconds(1))) {
        continuation.resume()
      }
    }
  }

  @Test func receiveOnRunLoop() {
    var received: [Int] = []
    let cancellable = [1, 2, 3].publisher.receive(on: RunLoop.current).sink { received.append($0) }
    #expect(received.isEmpty)
    spin { received.count == 3 }
    #expect(received == [1, 2, 3])
    cancellable.cancel()
  }
}

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
}

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
