import ReactiveCore
import Testing

@Suite struct SequenceTests {
  @Test func sequenceHonoursDemandAndFinishesAfterLastElement() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.subscribe(tracker)
    #expect(tracker.values == [1, 2])
    #expect(tracker.completions.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [1, 2, 3])
    #expect(tracker.completions == [.finished])
  }

  @Test func emptySequenceFinishesWithoutDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
    [Int]().publisher.subscribe(tracker)
    #expect(tracker.completions == [.finished])
  }

  @Test func sequenceHandlesReentrantRequests() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    let reentrant = TrackingSubscriber<Int, Never>(
      initialDemand: .max(1), onValue: { _ in tracker.request(.max(1)) })
    _ = reentrant
    var received: [Int] = []
    var subscription: (any Subscription)?
    (1...5).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.max(1))
        },
        receiveValue: { value in
          received.append(value)
          subscription?.request(.max(1))
          return .none
        }))
    #expect(received == [1, 2, 3, 4, 5])
  }

  // The declared types are the assertion: each line compiles only if the operator has
  // Combine's specialised return type.
  @Test func sequenceOperatorsStaySequences() {
    let mapped: Publishers.Sequence<[Int], Never> = [1, 2].publisher.map { $0 * 10 }
    #expect(mapped.sequence == [10, 20])
    let filtered: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.filter { $0 != 2 }
    #expect(filtered.sequence == [1, 3])
    let scanned: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)
    #expect(scanned.sequence == [1, 3, 6])
    let deduped: Publishers.Sequence<[Int], Never> = [1, 1, 2, 1].publisher.removeDuplicates()
    #expect(deduped.sequence == [1, 2, 1])
    let counted: Result<Int, Never>.Publisher = [1, 2, 3].publisher.count()
    #expect(counted.result == .success(3))
    let collected: Result<[Int], Never>.Publisher = [1, 2].publisher.collect()
    #expect(collected.result == .success([1, 2]))
    let first: Optional<Int>.Publisher = [4, 5].publisher.first()
    #expect(first.output == 4)
    let maximum: Optional<Int>.Publisher = [4, 9, 5].publisher.max()
    #expect(maximum.output == 9)
    #expect(collectAll([1, 2, 3].publisher.dropFirst()).0 == [2, 3])
    #expect(collectAll([1, 2, 3].publisher.prefix(2)).0 == [1, 2])
  }

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
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

  // Sequence and record subscriptions as Combine shapes them.
  @Test func aLiveSequenceSubscriptionDescribesItsSequence() {
    let held = LockedBox<(any Subscription)?>(nil)
    [1, 2].publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let subscription = held.withLock { $0 }
    #expect(subscription.map { "\($0)" } == "[1, 2]")
    subscription?.request(.unlimited)
    #expect(subscription.map { "\($0)" } == "Sequence")
  }

  @Test func anEmptySequenceCompletesThroughAnEmptySubscription() {
    let tracking = TrackingSubscriber<Int, Never>()
    [Int]().publisher.subscribe(tracking)
    #expect(tracking.events == [.subscription("Empty"), .completion(.finished)])
    let record = TrackingSubscriber<Int, TestError>()
    Record<Int, TestError>(output: [], completion: .failure(.oops)).subscribe(record)
    #expect(record.events == [.subscription("Empty"), .completion(.failure(.oops))])
  }

  @Test func zeroDemandOnASequenceIsNoDemand() {
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    [1, 2].publisher.subscribe(tracking)
    tracking.request(.none)
    #expect(tracking.values.isEmpty)
    tracking.request(.max(1))
    #expect(tracking.values == [1])
  }
}
