import Dispatch
import Foundation
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

  @Test(arguments: [
    (SchedulerStride.seconds(1), 1_000_000_000),
    (.milliseconds(500), 500_000_000),
    (.microseconds(3), 3_000),
    (.nanoseconds(7), 7),
    (.seconds(1.5), 1_500_000_000),
  ])
  func strideConversions(stride: SchedulerStride, nanoseconds: Int) {
    #expect(stride.magnitude == nanoseconds)
  }

  @Test func immediateSchedulerRunsAtOnce() {
    var ran = false
    ImmediateScheduler.shared.schedule { ran = true }
    #expect(ran)
    ran = false
    let cancellable = ImmediateScheduler.shared.schedule(
      after: ImmediateScheduler.shared.now, interval: 10
    ) { ran = true }
    #expect(ran)
    #expect(String(describing: cancellable) == "Empty")
  }

  /// Combine's immediate scheduler has its own time type: a moment that never moves and a
  /// unitless stride to which every time unit converts as zero.
  @Test func immediateSchedulerTimeNeverMoves() throws {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
    let now = ImmediateScheduler.shared.now
    #expect(now == now.advanced(by: 100))
    #expect(now.distance(to: now.advanced(by: -1)) == 0)
    #expect(Stride(14) == 14.6)
    #expect(Stride(-4) * Stride(5) == -20)
    #expect(Stride.seconds(1.2) == 0)
    #expect(Stride.milliseconds(123) == 0)
    #expect(ImmediateScheduler.shared.minimumTolerance == 0)
    let encoded = try JSONEncoder().encode(["value": Stride(-42)])
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"magnitude":-42}}"#)
  }

  @Test func dispatchQueueSchedulesWork() async {
    let queue = DispatchQueue(label: "ripple.test")
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.schedule(after: queue.now.advanced(by: .milliseconds(1))) {
        continuation.resume()
      }
    }
    let start = queue.now
    #expect(start.distance(to: start.advanced(by: .seconds(1))) == .seconds(1))
  }
}
