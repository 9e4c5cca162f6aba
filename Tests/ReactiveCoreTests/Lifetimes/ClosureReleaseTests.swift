import Dispatch
import ReactiveCore
import Testing

/// An operator whose closure gets a say in when the subscription ends, for
/// ``ClosureReleaseTests``: `judge` runs once per value.
struct JudgingRow: Sendable, CustomTestStringConvertible {
  let name: String
  let make:
    @Sendable (PassthroughSubject<Int, TestError>, @escaping (Int) -> Bool) -> AnyPublisher<
      Int, any Error
    >

  var testDescription: String { name }

  static let all: [JudgingRow] = [
    .init(name: "removeDuplicates(by:)") { upstream, judge in
      upstream.removeDuplicates { _, new in !judge(new) }.mapError { $0 as any Error }
        .eraseToAnyPublisher()
    },
    .init(name: "prefix(while:)") { upstream, judge in
      upstream.prefix { judge($0) }.mapError { $0 as any Error }.eraseToAnyPublisher()
    },
    .init(name: "tryFilter") { upstream, judge in
      upstream.tryFilter { judge($0) }.eraseToAnyPublisher()
    },
    .init(name: "tryCompactMap") { upstream, judge in
      upstream.tryCompactMap { judge($0) ? $0 : nil }.eraseToAnyPublisher()
    },
    .init(name: "reduce") { upstream, judge in
      upstream.reduce(0) { judge($1) ? $0 + $1 : $0 }.mapError { $0 as any Error }
        .eraseToAnyPublisher()
    },
    .init(name: "flatMap") { upstream, judge in
      upstream.flatMap { value in
        _ = judge(value)
        return Just(value).setFailureType(to: TestError.self)
      }.mapError { $0 as any Error }.eraseToAnyPublisher()
    },
  ]
}

/// Operators let go of their closures at the end also where the lifetime table
/// (`OperatorLifetimeTests`) does not look: when the end comes while the closure runs (from
/// inside it, or from another thread), and for `tryMap`, whose transform lives as long as
/// upstream can still send it values.
@Suite struct ClosureReleaseTests {
  /// A cancel from inside the operator's own closure: the closure is let go once it
  /// returns, though the subscriber keeps its subscription (and the closure captured the
  /// subscriber: a cycle only the release breaks).
  @Test(arguments: JudgingRow.all)
  func aCancelFromInsideTheClosure(_ row: JudgingRow) {
    let upstream = PassthroughSubject<Int, TestError>()
    let subscriber = HoldingSubscriber<Int, any Error>()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      row.make(upstream) { value in
        _ = token
        if value == 2 { subscriber.subscription?.cancel() }
        return true
      }.subscribe(subscriber)
    }
    upstream.send(1)
    #expect(weakToken != nil, "\(row.name): closure let go while live")
    upstream.send(2)
    #expect(weakToken == nil, "\(row.name): closure kept after a cancel from inside it")
    subscriber.releaseSubscription()
  }

  /// A cancel on one thread while values arrive on another: whichever way the race goes,
  /// the closure is let go (and, under the thread sanitizer, never read and cleared at
  /// once).
  @Test(arguments: JudgingRow.all)
  func aCancelRacingValues(_ row: JudgingRow) {
    for _ in 0..<100 {
      let upstream = PassthroughSubject<Int, TestError>()
      let subscriber = HoldingSubscriber<Int, any Error>()
      weak var weakToken: Token?
      do {
        let token = Token()
        weakToken = token
        row.make(upstream) { _ in
          _ = token
          return true
        }.subscribe(subscriber)
      }
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<100 { upstream.send(value) }
        } else {
          subscriber.subscription?.cancel()
        }
      }
      #expect(weakToken == nil, "\(row.name): closure kept after a racing cancel")
      subscriber.releaseSubscription()
    }
  }

  /// As in Combine, `tryMap` transforms what upstream still sends after a cancel, so its
  /// transform lives as long as upstream keeps its subscriber, and goes when upstream lets
  /// go, though the subscriber still holds the subscription.
  @Test func tryMapKeepsItsTransformOnlyWhileUpstreamCanSend() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let received = LockedBox<[Int]>([])
    let subscription = LockedBox<(any Subscription)?>(nil)
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      publisher.tryMap { value -> Int in
        _ = token
        return value * 2
      }.subscribe(
        AnySubscriber<Int, any Error>(
          receiveSubscription: { new in
            subscription.withLock { $0 = new }
            new.request(.unlimited)
          },
          receiveValue: { value in
            received.withLock { $0.append(value) }
            return .none
          }, receiveCompletion: { _ in }))
    }
    subscription.withLock { $0 }?.cancel()
    publisher.send(1)
    #expect(received.withLock { $0 } == [2])
    #expect(weakToken != nil, "upstream can still send: the transform must stay")
    publisher.releaseSubscriber()
    #expect(weakToken == nil, "upstream let go: nothing can reach the transform")
    #expect(subscription.withLock { $0 } != nil)
    // The subscriber's closure holds the subscription, which keeps the subscriber as
    // Combine's does: break that cycle (LeakSanitizer runs this suite).
    subscription.withLock { $0 = nil }
  }

  /// Keeping the transform apart keeps Combine's shape: the subscriber upstream holds is
  /// the subscription too (a cancel through it before the subscription arrives does
  /// nothing, so the late subscription is kept and never cancelled).
  @Test func tryMapsUpstreamSubscriberIsItsSubscription() throws {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let holder = HoldingSubscriber<Int, any Error>()
    // The holder keeps its subscription, which keeps the holder: let go at the end.
    defer { holder.releaseSubscription() }
    publisher.tryMap { $0 }.subscribe(holder)
    let subscription = try #require(publisher.rawSubscriber as? any Subscription)
    subscription.request(.max(1))
    subscription.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.requested(.unlimited)])
    publisher.releaseSubscriber()
  }
}
