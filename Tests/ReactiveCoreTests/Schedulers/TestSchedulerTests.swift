import ReactiveCore
import Testing

@Suite struct TestSchedulerTests {
  @Test func startsAtZeroAndRunsWorkInDueThenSubmissionOrder() {
    let scheduler = TestScheduler()
    #expect(scheduler.now == SchedulerInstant(0))
    var log: [String] = []
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("b2") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("a1") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("c2") }
    scheduler.schedule { log.append("now") }
    scheduler.advance(by: .milliseconds(500))
    #expect(log == ["now"])
    scheduler.advance(by: .milliseconds(500))
    #expect(log == ["now", "a1"])
    scheduler.advance(by: .seconds(5))
    #expect(log == ["now", "a1", "b2", "c2"])
    #expect(scheduler.now == SchedulerInstant(0).advanced(by: .seconds(6)))
  }

  @Test func clockReadsTheDueTimeWhileWorkRuns() {
    let scheduler = TestScheduler()
    var seen: [SchedulerInstant] = []
    scheduler.schedule(after: SchedulerInstant(0).advanced(by: .seconds(3))) {
      seen.append(scheduler.now)
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
        seen.append(scheduler.now)
      }
    }
    scheduler.advance(by: .seconds(10))
    #expect(seen == [SchedulerInstant(3_000_000_000), SchedulerInstant(4_000_000_000)])
  }

  @Test func repeatingWorkRunsEveryIntervalUntilCancelled() {
    let scheduler = TestScheduler()
    var ticks = 0
    let cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { ticks += 1 }
    scheduler.advance(by: .seconds(3))
    #expect(ticks == 3)
    cancellable.cancel()
    scheduler.advance(by: .seconds(3))
    #expect(ticks == 3)
  }

  @Test func runDrainsEverything() {
    let scheduler = TestScheduler()
    var log: [Int] = []
    scheduler.schedule(after: SchedulerInstant(0).advanced(by: .seconds(100))) { log.append(2) }
    scheduler.schedule(after: SchedulerInstant(0).advanced(by: .seconds(1))) { log.append(1) }
    scheduler.run()
    #expect(log == [1, 2])
    #expect(scheduler.pendingCount == 0)
  }

  // What LeakSanitizer reported for these in tests that never cancel was the test's own
  // cycle (a ``TrackingSubscriber`` keeps its subscription): cancelled or completed, they
  // release everything, which these hold weakly.
  @Test func aRepeatingTestSchedulerActionIsReleasedWhenCancelled() {
    let scheduler = TestScheduler()
    weak var weakToken: Token?
    var runs = 0
    let cancellable: any Cancellable
    do {
      let token = Token()
      weakToken = token
      cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
        _ = token
        runs += 1
      }
    }
    scheduler.advance(by: .seconds(2))
    cancellable.cancel()
    #expect(runs == 3)
    #expect(scheduler.pendingCount == 0)
    #expect(weakToken == nil)
  }
}
