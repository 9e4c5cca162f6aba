import ReactiveCore
import Testing

/// Combine's demand rules for `combineLatest`, as the maintained OpenCombine fork's suite
/// records them against Apple's Combine.
@Suite struct CombineLatestDemandTests {
  struct Sides {
    let subscriptions = [RecordingSubscription(), RecordingSubscription()]
    let publishers: [ManualPublisher<Int, TestError>]
    let tracker: TrackingSubscriber<Int, TestError>

    init(initialDemand: Subscribers.Demand?) {
      publishers = subscriptions.map { ManualPublisher(subscription: $0) }
      tracker = TrackingSubscriber(initialDemand: initialDemand)
      publishers[0].combineLatest(publishers[1]) { $0 + $1 }.subscribe(tracker)
    }
  }

  @Test func nothingIsAskedBeforeDownstreamAsks() {
    let sides = Sides(initialDemand: nil)
    #expect(sides.subscriptions.map(\.history) == [[], []])
  }

  @Test func everyRequestGoesToEveryUpstream() {
    let sides = Sides(initialDemand: .unlimited)
    sides.tracker.request(.max(2))
    #expect(
      sides.subscriptions.map(\.history)
        == Array(repeating: [.requested(.unlimited), .requested(.max(2))], count: 2))
  }

  @Test func aCombinationWithoutDemandIsNotHeld() {
    let sides = Sides(initialDemand: .max(1))
    #expect(sides.publishers[0].send(100) == .none)
    #expect(sides.publishers[1].send(1) == .none)
    _ = sides.publishers[0].send(200)
    _ = sides.publishers[1].send(2)
    #expect(sides.tracker.values == [101])
    sides.tracker.request(.max(1))
    #expect(sides.tracker.values == [101])  // nothing held to send now
    _ = sides.publishers[1].send(3)
    #expect(sides.tracker.values == [101, 203])
  }

  /// A subscriber that feeds an upstream from inside a delivery used to loop forever.
  @Test func aValueSentFromInsideADeliveryUpdatesWithoutLooping() {
    let subscriptions = [RecordingSubscription(), RecordingSubscription()]
    let publishers = subscriptions.map { ManualPublisher<Int, TestError>(subscription: $0) }
    var received: [Int] = []
    let cancellable = publishers[0].combineLatest(publishers[1]) { $0 + $1 }
      .sink(
        receiveCompletion: { _ in },
        receiveValue: {
          received.append($0)
          publishers[0].send(10)
        })
    publishers[0].send(1)
    publishers[1].send(1)
    #expect(received == [2])
    publishers[1].send(2)  // the re-entrant 10 became the latest first value
    #expect(received == [2, 12])
    cancellable.cancel()
  }

  @Test func aFailureCancelsTheOtherUpstreamsNotTheFailingOne() {
    let sides = Sides(initialDemand: .unlimited)
    sides.publishers[0].send(completion: .failure(.oops))
    #expect(sides.tracker.completions == [.failure(.oops)])
    #expect(sides.subscriptions[0].history == [.requested(.unlimited)])
    #expect(sides.subscriptions[1].history == [.requested(.unlimited), .cancelled])
  }

  @Test func aSecondSubscriptionForOneSideIsCancelled() {
    let sides = Sides(initialDemand: nil)
    let second = RecordingSubscription()
    sides.publishers[0].send(subscription: second)
    #expect(second.history == [.cancelled])
    sides.tracker.subscription?.cancel()
    #expect(sides.subscriptions[0].history == [.cancelled])
  }
}
