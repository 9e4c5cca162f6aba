import Dispatch
import Foundation
import ReactiveCore
import Testing

@Suite struct DispatchQueueSchedulerTests {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

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

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
  @Test func dispatchTimeEncodesItsUptime() throws {
    let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 42))
    let data = try JSONEncoder().encode([time])
    #expect(String(decoding: data, as: UTF8.self) == "[42]")
    #expect(try JSONDecoder().decode([DispatchQueue.SchedulerTimeType].self, from: data) == [time])
  }

  // `DispatchQueue` as a scheduler measures time in its own `Stride`, as Combine's does.
  @Test func literalsAreSecondsAndConstructionSaturates() {
    #expect((2 as Stride).magnitude == 2_000_000_000)
    #expect((1.5 as Stride).magnitude == 1_500_000_000)
    #expect(Stride.seconds(Int.max).magnitude == .max)
    #expect(Stride.milliseconds(Int.min).magnitude == .min)
    #expect(Stride(.never).magnitude == .max)
    #expect(Stride(exactly: UInt64.max) == nil)
  }

  @Test func strideTimeIntervalIsADispatchTimeInterval() {
    #expect(Stride.milliseconds(2).timeInterval == .nanoseconds(2_000_000))
  }

  @Test func distancesSaturateAtTheDistantFuture() {
    let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10_000))
    let future = DispatchQueue.SchedulerTimeType(.distantFuture)
    #expect(time.distance(to: future) == .nanoseconds(.max))
    #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
    #expect(time.advanced(by: .nanoseconds(-220)).dispatchTime.uptimeNanoseconds == 9_780)
  }

  @Test func strideEncodesAsCombineDoes() throws {
    let data = try JSONEncoder().encode([Stride.nanoseconds(7)])
    #expect(String(decoding: data, as: UTF8.self) == #"[{"_nanoseconds":7}]"#)
  }
}
