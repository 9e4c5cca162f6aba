import Dispatch
import Foundation
import ReactiveCore
import Testing

/// The concrete types Combine's specialised overloads return, so Combine code that names
/// them (or reads `.result`, `.upstream`) compiles and behaves the same.
@Suite struct CombineShapeTests {
  @Test func throwingOperatorsOnJustAnswerWithAResultPublisher() {
    let contains: Result<Bool, any Error>.Publisher = Just(1).tryContains { $0 == 1 }
    #expect((try? contains.result.get()) == true)
    let failing: Result<Bool, any Error>.Publisher = Just(1).tryAllSatisfy { _ in
      throw TestError.oops
    }
    #expect(throws: TestError.oops) { try failing.result.get() }
    let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2).append(4)
    #expect(prepended.sequence == [1, 2, 3, 4])
  }

  @Test func resultPublisherThrowingComparisonsAskTheClosureOnce() {
    let calls = LockedBox(0)
    let publisher = Result<Int, TestError>.success(5).publisher
    let min: Result<Int, any Error>.Publisher = publisher.tryMin { lhs, rhs in
      calls.withLock { $0 += 1 }
      return lhs < rhs
    }
    #expect((try? min.result.get()) == 5)
    #expect(calls.withLock { $0 } == 1)
    let deduplicated: Result<Int, any Error>.Publisher = publisher.tryRemoveDuplicates { _, _ in
      throw TestError.oops
    }
    #expect(throws: TestError.oops) { try deduplicated.result.get() }
  }

  @Test func sequenceOperatorsKeepCombinesShapes() {
    let sequence = [1, 2, 2, 3].publisher
    let all: Result<Bool, any Error>.Publisher = sequence.tryAllSatisfy { $0 > 0 }
    #expect((try? all.result.get()) == true)
    let count: Just<Int> = sequence.count()
    #expect(count.output == 4)
    let window: Publishers.Sequence<[Int], Never> = sequence.output(in: 1..<3)
    #expect(window.sequence == [2, 2])
    let last: Optional<Int>.Publisher = sequence.last { $0 < 3 }
    #expect(last.output == 2)
    let replaced: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
    #expect(replaced.sequence == [1, 0])
  }

  @Test func mapAndFilterFuseIntoTheOperatorAlreadyThere() {
    let subject = PassthroughSubject<Int, Never>()
    let mapped = subject.map { $0 * 2 }
    let fused: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = mapped.tryMap { $0 + 1 }
    #expect(fused.upstream === subject)
    let compact = subject.compactMap { $0 > 0 ? $0 : nil }
    let compactFused: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> =
      compact.map { "\($0)" }
    #expect(compactFused.upstream === subject)
    let filtered: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
      subject.filter { $0 > 0 }.tryFilter { $0 < 10 }
    #expect(filtered.upstream === subject)
    var received: [Int] = []
    let cancellable = filtered.sink(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    for value in [-1, 5, 12, 7] { subject.send(value) }
    #expect(received == [5, 7])
    cancellable.cancel()
  }

  @Test func switchToLatestAcceptsMixedFailureTypes() {
    let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
    let switched:
      Publishers.SwitchToLatest<
        PassthroughSubject<Int, TestError>,
        Publishers.SetFailureType<
          PassthroughSubject<PassthroughSubject<Int, TestError>, Never>, TestError
        >
      > = outer.switchToLatest()
    #expect(switched.upstream.upstream === outer)
    let failingOuter = PassthroughSubject<Just<Int>, TestError>()
    var received: [Int] = []
    let cancellable = failingOuter.switchToLatest().sink(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    failingOuter.send(Just(4))
    #expect(received == [4])
    cancellable.cancel()
  }

  @Test func recordEncodesAsCombineDoes() throws {
    let record = Record<Int, RecordedError>(output: [1], completion: .finished)
    let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    #expect(json.contains(#""recording":{"#))
    let decoded = try JSONDecoder().decode(Record<Int, RecordedError>.self, from: Data(json.utf8))
    #expect(decoded.recording.output == [1])
  }

  @Test func dispatchTimeEncodesItsUptime() throws {
    let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 42))
    let data = try JSONEncoder().encode([time])
    #expect(String(decoding: data, as: UTF8.self) == "[42]")
    #expect(try JSONDecoder().decode([DispatchQueue.SchedulerTimeType].self, from: data) == [time])
  }
}

private struct RecordedError: Error, Codable {}

/// `DispatchQueue` as a scheduler measures time in its own `Stride`, as Combine's does.
@Suite struct DispatchStrideTests {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

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

/// `Future` subscriptions as Combine's.
@Suite struct FutureCombineTests {
  @Test func aCancelledSubscriberIsForgottenByTheFuture() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakSink = sink
      future.subscribe(sink)
      sink.cancel()
    }
    #expect(weakSink == nil)
    promise?(.success(1))
  }

  @Test func theSubscriptionMirrorsItsFutureUntilItDelivers() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    let held = LockedBox<(any Subscription)?>(nil)
    future.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let subscription = held.withLock { $0 }
    func parent() -> Any? {
      subscription.flatMap { Mirror(reflecting: $0).children.first { $0.label == "parent" }?.value }
    }
    #expect("\(parent() ?? "none")".contains("Future"))
    subscription?.request(.unlimited)
    promise?(.success(1))
    #expect("\(parent() ?? "none")" == "nil")
    held.withLock { $0 = nil }
  }

  /// Combine keeps the future while it delivers a result to a waiting subscriber (also a
  /// failure), and lets go of it once delivered.
  @Test(arguments: [true, false])
  func theParentIsHeldWhileDelivering(fails: Bool) {
    var promise: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { promise = $0 }
    var subscription: (any Subscription)?
    var parentsSeen: [String] = []
    func parent() -> String {
      subscription.flatMap {
        Mirror(reflecting: $0).children.first { $0.label == "parent" }.map { "\($0.value)" }
      } ?? "none"
    }
    future.subscribe(
      AnySubscriber<Int, TestError>(
        receiveSubscription: {
          subscription = $0
          $0.request(.unlimited)
        },
        receiveValue: { _ in
          parentsSeen.append(parent())
          return .none
        },
        receiveCompletion: { _ in parentsSeen.append(parent()) }))
    promise?(fails ? .failure(.oops) : .success(1))
    #expect(parentsSeen.count == (fails ? 1 : 2))
    #expect(parentsSeen.allSatisfy { $0.contains("Future") })
    #expect(parent() == "nil")
  }

  @Test func aResultDeliveredOnDemandKeepsTheFuture() {
    let future = Future<Int, Never> { $0(.success(42)) }
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    future.subscribe(tracking)
    tracking.request(.max(1))
    #expect(tracking.events == [.subscription("Future"), .value(42), .completion(.finished)])
    let parent = tracking.subscription.flatMap {
      Mirror(reflecting: $0).children.first { $0.label == "parent" }.map { "\($0.value)" }
    }
    #expect(parent?.contains("Future") == true)
  }
}
