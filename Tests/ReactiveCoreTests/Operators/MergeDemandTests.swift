import ReactiveCore
import Testing

/// Combine's demand rules for `merge`, as the maintained OpenCombine fork's suite records
/// them against Apple's Combine: one value asked of each upstream until downstream asks for
/// unlimited, one held value per upstream, and no trap on a request of none.
@Suite struct MergeDemandTests {
  struct Sides {
    let subscriptions = [RecordingSubscription(), RecordingSubscription()]
    let publishers: [ManualPublisher<Int, TestError>]
    let tracker: TrackingSubscriber<Int, TestError>

    init(initialDemand: Subscribers.Demand?, demandPerValue: Subscribers.Demand = .none) {
      publishers = subscriptions.map { ManualPublisher(subscription: $0) }
      tracker = TrackingSubscriber(initialDemand: initialDemand, demandPerValue: demandPerValue)
      publishers[0].merge(with: publishers[1]).subscribe(tracker)
    }
  }

  @Test func eachUpstreamIsAskedForOneValueUntilDownstreamAsksForUnlimited() {
    let sides = Sides(initialDemand: nil)
    #expect(sides.subscriptions.map(\.history) == [[.requested(.max(1))], [.requested(.max(1))]])
    sides.tracker.request(.unlimited)
    #expect(
      sides.subscriptions.map(\.history)
        == Array(repeating: [.requested(.max(1)), .requested(.unlimited)], count: 2))
  }

  @Test func unlimitedDemandAtSubscriptionIsPassedOnAtOnce() {
    let sides = Sides(initialDemand: .unlimited)
    #expect(
      sides.subscriptions.map(\.history) == [[.requested(.unlimited)], [.requested(.unlimited)]])
    #expect(sides.publishers[0].send(1) == .none)
    #expect(sides.tracker.values == [1])
  }

  @Test func aDeliveredValueAsksItsUpstreamForOneMore() {
    let sides = Sides(initialDemand: .max(1))
    #expect(sides.publishers[0].send(100) == .max(1))
    #expect(sides.publishers[1].send(1) == .none)
    #expect(sides.tracker.values == [100])
  }

  @Test func oneValuePerUpstreamIsHeldAndALaterOneReplacesIt() {
    let sides = Sides(initialDemand: .max(1))
    _ = sides.publishers[0].send(100)
    _ = sides.publishers[1].send(1)
    _ = sides.publishers[0].send(200)
    _ = sides.publishers[0].send(300)
    _ = sides.publishers[1].send(2)
    #expect(sides.tracker.values == [100])
    sides.tracker.request(.max(1))
    #expect(sides.tracker.values == [100, 300])
    // The upstream whose held value went out is asked for one more.
    #expect(sides.subscriptions[0].history == [.requested(.max(1)), .requested(.max(1))])
    sides.tracker.request(.max(5))
    #expect(sides.tracker.values == [100, 300, 2])
  }

  @Test func demandAddedDuringADeliveryCountsAfterIt() {
    let subscriptions = [RecordingSubscription(), RecordingSubscription()]
    let publishers = subscriptions.map { ManualPublisher<Int, TestError>(subscription: $0) }
    var downstream: (any Subscription)?
    let sink = AnySubscriber<Int, TestError>(
      receiveSubscription: {
        downstream = $0
        $0.request(.max(1))
      },
      receiveValue: { _ in
        downstream?.request(.max(666))
        return .none
      },
      receiveCompletion: { _ in })
    publishers[0].merge(with: publishers[1]).subscribe(sink)
    #expect(publishers[0].send(1) == .max(1))
    #expect(publishers[1].send(2) == .max(1))
    #expect(subscriptions.map(\.history) == [[.requested(.max(1))], [.requested(.max(1))]])
    downstream?.cancel()
  }

  @Test func heldValuesGoOutBeforeTheFinish() {
    let sides = Sides(initialDemand: nil)
    _ = sides.publishers[0].send(7)
    sides.publishers[0].send(completion: .finished)
    sides.publishers[1].send(completion: .finished)
    #expect(sides.tracker.events == [.subscription("Merge")])
    sides.tracker.request(.max(1))
    #expect(sides.tracker.values == [7])
    #expect(sides.tracker.completions == [.finished])
  }

  @Test func aFailureCancelsEveryUpstreamTheFailingOneToo() {
    let sides = Sides(initialDemand: .unlimited)
    sides.publishers[0].send(completion: .failure(.oops))
    #expect(sides.tracker.completions == [.failure(.oops)])
    #expect(sides.subscriptions[0].history == [.requested(.unlimited), .cancelled])
    #expect(sides.subscriptions[1].history == [.requested(.unlimited), .cancelled])
  }

  @Test func aSecondSubscriptionForOneSideIsCancelled() {
    let sides = Sides(initialDemand: nil)
    let second = RecordingSubscription()
    sides.publishers[0].send(subscription: second)
    #expect(second.history == [.cancelled])
    sides.tracker.subscription?.cancel()
    #expect(sides.subscriptions[0].history == [.requested(.max(1)), .cancelled])
  }

  @Test(arguments: 2...9)
  func aRequestOfNoneDoesNotTrap(arity: Int) {
    let subjects = (0..<arity).map { _ in PassthroughSubject<Int, Never>() }
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: Subscribers.Demand.none)
    Publishers.MergeMany(subjects).subscribe(tracker)
    subjects[0].send(1)
    #expect(tracker.values.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [1])
  }
}
