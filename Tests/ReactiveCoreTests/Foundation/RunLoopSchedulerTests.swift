import Foundation
import ReactiveCore
import Testing

@Suite struct RunLoopSchedulerTests {
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

  @Test func receiveOnRunLoop() {
    var received: [Int] = []
    let cancellable = [1, 2, 3].publisher.receive(on: RunLoop.current).sink { received.append($0) }
    #expect(received.isEmpty)
    spin { received.count == 3 }
    #expect(received == [1, 2, 3])
    cancellable.cancel()
  }

  // The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
  // here: as in Combine, a completion or a cancel releases everything.
  @Test func aRunLoopReleasesAOneShotActionOnceItRan() {
    let runLoop = RunLoop.current
    weak var weakToken: Token?
    var ran = false
    do {
      let token = Token()
      weakToken = token
      runLoop.schedule(after: runLoop.now) {
        _ = token
        ran = true
      }
    }
    spinRunLoop { ran }
    #expect(ran)
    #expect(weakToken == nil)
  }

  @Test func aRunLoopReleasesARepeatingActionWhenCancelled() {
    let runLoop = RunLoop.current
    weak var weakToken: Token?
    var ticks = 0
    let cancellable: any Cancellable
    do {
      let token = Token()
      weakToken = token
      cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(1)) {
        _ = token
        ticks += 1
      }
    }
    spinRunLoop { ticks >= 1 }
    cancellable.cancel()
    #expect(ticks >= 1)
    #expect(weakToken == nil)
  }
}
