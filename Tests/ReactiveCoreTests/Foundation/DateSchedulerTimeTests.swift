import Foundation
import ReactiveCore
import Testing

/// `RunLoop` and `OperationQueue` share one `Date`-based time type, `DateSchedulerTime`,
/// under two distinct instantiations, as Combine has two distinct types.
@Suite struct DateSchedulerTimeTests {
  /// The same checks on either scheduler's time, spelled through the generic type.
  private func checkArithmetic<Owner>(_: DateSchedulerTime<Owner>.Type) {
    typealias Time = DateSchedulerTime<Owner>
    typealias Stride = Time.Stride
    let start = Time(Date(timeIntervalSinceReferenceDate: 100))
    #expect(start.date == Date(timeIntervalSinceReferenceDate: 100))
    #expect(start.advanced(by: 1.5).date == Date(timeIntervalSinceReferenceDate: 101.5))
    #expect(start.advanced(by: -1).date == Date(timeIntervalSinceReferenceDate: 99))
    #expect(start.distance(to: start.advanced(by: .milliseconds(250))) == 0.25)
    #expect(start.advanced(by: 2).distance(to: start) == -2)
    #expect(start < start.advanced(by: .nanoseconds(1_000)))
    #expect(start.advanced(by: 0) == start)
    #expect(Set([start, Time(start.date), start.advanced(by: 1)]).count == 2)
    var moved = start
    moved.date = Date(timeIntervalSinceReferenceDate: 0)
    #expect(moved.distance(to: start).timeInterval == 100)
    let ticks = Array(Swift.stride(from: start, to: start.advanced(by: 1), by: 0.25))
    #expect(ticks.map(\.date.timeIntervalSinceReferenceDate) == [100, 100.25, 100.5, 100.75])

    #expect(Stride(1.5).magnitude == 1.5)
    #expect(Stride(1.5).timeInterval == 1.5)
    #expect((2 as Stride).timeInterval == 2)
    #expect((0.5 as Stride).timeInterval == 0.5)
    #expect(Stride(exactly: 3)?.timeInterval == 3)
    #expect(Stride(exactly: UInt64.max) == nil)  // not exactly a `Double`
    #expect(Stride.seconds(2) == 2)
    #expect(Stride.seconds(0.5) == 0.5)
    #expect(Stride.milliseconds(1_500) == 1.5)
    #expect(Stride.microseconds(250).magnitude == 0.00025)
    #expect(Stride.nanoseconds(500_000_000) == 0.5)
    #expect(Stride(2) + Stride(0.5) == 2.5)
    #expect(Stride(2) - Stride(0.5) == 1.5)
    #expect(Stride(2) * Stride(0.5) == 1)
    #expect(-Stride(2) == -2)
    #expect(Stride(-2).magnitude == -2)
    var stride = Stride(1)
    stride += 2
    stride *= 3
    stride -= 4
    #expect(stride == 5)
    #expect(Stride(1) < Stride(2))
    #expect([Stride(3), 1, 2].max() == 3)
    #expect(Set([Stride(1), 1.0, 2]).count == 2)
  }

  @Test func runLoopTimeArithmetic() {
    checkArithmetic(RunLoop.SchedulerTimeType.self)
    // Combine's spellings, through the scheduler.
    let time = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 0))
    let stride: RunLoop.SchedulerTimeType.Stride = .milliseconds(1_500)
    #expect(time.advanced(by: stride).date == Date(timeIntervalSince1970: 1.5))
    #expect(RunLoop.SchedulerTimeType.Stride(1.5).timeInterval == 1.5)
    #expect(RunLoop.current.minimumTolerance == 0)
  }

  @Test func operationQueueTimeArithmetic() {
    checkArithmetic(OperationQueue.SchedulerTimeType.self)
    let time = OperationQueue.SchedulerTimeType(Date(timeIntervalSince1970: 0))
    let stride: OperationQueue.SchedulerTimeType.Stride = .milliseconds(1_500)
    #expect(time.advanced(by: stride).date == Date(timeIntervalSince1970: 1.5))
    #expect(OperationQueue.SchedulerTimeType.Stride(1.5).timeInterval == 1.5)
    #expect(OperationQueue().minimumTolerance == 0)
  }

  @Test func nowIsTheCurrentDate() {
    let before = Date()
    let runLoopNow = RunLoop.current.now.date
    let queueNow = OperationQueue().now.date
    let after = Date()
    #expect(before <= runLoopNow && runLoopNow <= after)
    #expect(before <= queueNow && queueNow <= after)
  }

  @Test func theTwoSchedulersHaveDistinctTimeTypes() {
    #expect(
      ObjectIdentifier(RunLoop.SchedulerTimeType.self)
        != ObjectIdentifier(OperationQueue.SchedulerTimeType.self))
    #expect(
      ObjectIdentifier(RunLoop.SchedulerTimeType.Stride.self)
        != ObjectIdentifier(OperationQueue.SchedulerTimeType.Stride.self))
    #expect(
      ObjectIdentifier(RunLoop.SchedulerTimeType.self)
        == ObjectIdentifier(DateSchedulerTime<RunLoop>.self))
    #expect(
      ObjectIdentifier(OperationQueue.SchedulerTimeType.self)
        == ObjectIdentifier(DateSchedulerTime<OperationQueue>.self))
    let runLoopTime: Any = RunLoop.current.now
    #expect(runLoopTime is RunLoop.SchedulerTimeType)
    #expect(!(runLoopTime is OperationQueue.SchedulerTimeType))
  }

  /// The JSON as each type encoded while it was its own struct: a keyed container with
  /// `date` (the date as `JSONEncoder` writes it) or `magnitude` (seconds).
  @Test(arguments: [
    (Date(timeIntervalSinceReferenceDate: 0), #"{"date":0}"#),
    (Date(timeIntervalSinceReferenceDate: 1.5), #"{"date":1.5}"#),
    (Date(timeIntervalSinceReferenceDate: -86_400), #"{"date":-86400}"#),
  ])
  func timeEncodesItsDate(date: Date, json: String) throws {
    let runLoopTime = RunLoop.SchedulerTimeType(date)
    let queueTime = OperationQueue.SchedulerTimeType(date)
    #expect(String(decoding: try JSONEncoder().encode(runLoopTime), as: UTF8.self) == json)
    #expect(String(decoding: try JSONEncoder().encode(queueTime), as: UTF8.self) == json)
    let data = Data(json.utf8)
    #expect(try JSONDecoder().decode(RunLoop.SchedulerTimeType.self, from: data) == runLoopTime)
    #expect(
      try JSONDecoder().decode(OperationQueue.SchedulerTimeType.self, from: data) == queueTime)
  }

  @Test(arguments: [
    (0.25, #"{"magnitude":0.25}"#),
    (-3, #"{"magnitude":-3}"#),
    (0, #"{"magnitude":0}"#),
  ])
  func strideEncodesItsSeconds(seconds: TimeInterval, json: String) throws {
    let runLoopStride = RunLoop.SchedulerTimeType.Stride(seconds)
    let queueStride = OperationQueue.SchedulerTimeType.Stride(seconds)
    #expect(String(decoding: try JSONEncoder().encode(runLoopStride), as: UTF8.self) == json)
    #expect(String(decoding: try JSONEncoder().encode(queueStride), as: UTF8.self) == json)
    let data = Data(json.utf8)
    #expect(
      try JSONDecoder().decode(RunLoop.SchedulerTimeType.Stride.self, from: data) == runLoopStride)
    #expect(
      try JSONDecoder().decode(OperationQueue.SchedulerTimeType.Stride.self, from: data)
        == queueStride)
  }

  @Test func timeEncodesWithTheEncodersDateStrategy() throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let time = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 0))
    let json = String(decoding: try encoder.encode([time]), as: UTF8.self)
    #expect(json == #"[{"date":"1970-01-01T00:00:00Z"}]"#)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode([RunLoop.SchedulerTimeType].self, from: Data(json.utf8)) == [time])
  }
}
