import Foundation
import ReactiveCore
import Testing

@Suite struct ImmediateSchedulerTests {
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
}
