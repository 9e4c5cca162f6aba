import Dispatch
import ReactiveCore
import ReactiveExtras
import Testing

@Suite struct SchedulerTimerTests {
  @Test func ticksOnTheSchedulerFromConnectUntilCancelled() {
    let scheduler = TestScheduler()
    let timer = scheduler.timer(every: .seconds(1))
    var ticks: [Int] = []
    let subscription = timer.sink { ticks.append($0.nanoseconds / 1_000_000_000) }
    scheduler.advance(by: .seconds(5))
    #expect(ticks.isEmpty)  // not connected yet
    let connection = timer.connect()
    // One connection at a time: connecting again returns the running one.
    let again: AnyObject = timer.connect() as AnyObject
    let first: AnyObject = connection as AnyObject
    #expect(ObjectIdentifier(again) == ObjectIdentifier(first))
    scheduler.advance(by: .seconds(3))
    #expect(ticks == [6, 7, 8])
    connection.cancel()
    scheduler.advance(by: .seconds(3))
    #expect(ticks == [6, 7, 8])
    #expect(scheduler.pendingCount == 0)
    subscription.cancel()
  }

  @Test func autoconnectStartsWithTheFirstSubscriberAndStopsWithTheLast() {
    let scheduler = TestScheduler()
    var first: [SchedulerInstant] = []
    var second: [SchedulerInstant] = []
    let publisher = scheduler.timer(every: .milliseconds(500)).autoconnect()
    let a = publisher.sink { first.append($0) }
    scheduler.advance(by: .seconds(1))
    let b = publisher.sink { second.append($0) }
    scheduler.advance(by: .seconds(1))
    #expect(first.count == 4)
    #expect(second.count == 2)
    #expect(Array(first.suffix(2)) == second)  // every subscriber sees the same ticks
    a.cancel()
    b.cancel()
    scheduler.advance(by: .seconds(1))
    #expect(first.count == 4)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aSubscriberWithoutDemandMissesTicks() {
    let scheduler = TestScheduler()
    let timer = scheduler.timer(every: .seconds(1))
    let tracker = Recorder<SchedulerInstant, Never>(initialDemand: .max(1))
    timer.subscribe(tracker)
    let connection = timer.connect()
    scheduler.advance(by: .seconds(3))
    #expect(tracker.values.count == 1)
    tracker.request(.max(1))
    #expect(tracker.values.count == 1)  // missed ticks are not replayed
    scheduler.advance(by: .seconds(1))
    #expect(tracker.values.count == 2)
    connection.cancel()
    tracker.cancel()
  }

  @Test func droppingTheTimerStopsItsTicks() {
    let scheduler = TestScheduler()
    weak var released: Publishers.SchedulerTimer<TestScheduler>?
    do {
      let timer = scheduler.timer(every: .seconds(1))
      released = timer
      _ = timer.connect()
    }
    #expect(released == nil)
    #expect(scheduler.pendingCount == 0)
  }

  /// The case `Timer.publish` cannot serve: no run loop runs, only a dispatch queue.
  @Test func ticksOnADispatchQueueWithoutARunLoop() async {
    let queue = DispatchQueue(label: "SchedulerTimerTests")
    let cancellable = LockedBox<AnyCancellable?>(nil)
    let count = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
      let ticks = LockedBox(0)
      cancellable.withLock {
        $0 = queue.timer(every: .milliseconds(5)).autoconnect().sink { _ in
          let now = ticks.withLock { count in
            count += 1
            return count
          }
          if now == 3 { done.resume(returning: now) }
        }
      }
    }
    cancellable.withLock { $0?.cancel() }
    #expect(count == 3)
  }
}
