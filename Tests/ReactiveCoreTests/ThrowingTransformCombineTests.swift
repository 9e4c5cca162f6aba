import ReactiveCore
import Testing

/// `tryMap` and `tryScan` as Combine shapes them, quirks included.
@Suite struct ThrowingTransformCombineTests {
  @Test func tryMapFailsOnEveryThrowAndCancelsUpstreamOnce() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let failures = LockedBox(0)
    let values = LockedBox<[Int]>([])
    let cancellable = publisher.tryMap { value -> Int in
      if value == 100 { throw TestError.oops }
      return value * 2
    }.sink(
      receiveCompletion: { _ in failures.withLock { $0 += 1 } },
      receiveValue: { value in values.withLock { $0.append(value) } })
    publisher.send(2)
    publisher.send(100)
    publisher.send(100)
    #expect(values.withLock { $0 } == [4])
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    // The sink itself stops at the first completion; tryMap sent both.
    #expect(failures.withLock { $0 } == 1)
    cancellable.cancel()
  }

  @Test func aCancelBeforeTheSubscriptionKeepsTheLateSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    publisher.tryMap { $0 }.subscribe(
      AnySubscriber<Int, any Error>(
        receiveSubscription: { _ in }, receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [])
  }

  @Test func tryScanShowsItsRunningResult() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let held = LockedBox<(any Subscription)?>(nil)
    publisher.tryScan(0) { $0 + $1 }.subscribe(
      AnySubscriber<Int, any Error>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    publisher.send(3)
    publisher.send(4)
    let mirror = held.withLock { $0 }.map { Mirror(reflecting: $0) }
    #expect(mirror?.children.first { $0.label == "result" }?.value as? Int == 7)
    #expect(held.withLock { $0 }.map { "\($0)" } == "TryScan")
  }
}
