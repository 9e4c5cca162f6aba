import ReactiveCore
import Testing

@Suite struct ConcatenateTests {
  @Test func appendAndPrependCarryDemand() {
    #expect(collectAll([1, 2].publisher.append(3, 4)).0 == [1, 2, 3, 4])
    #expect(collectAll([3].publisher.prepend(1, 2)).0 == [1, 2, 3])
    #expect(collectAll([2].publisher.append([3]).prepend(Just(1))).0 == [1, 2, 3])
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
    // Erased first: on a bare sequence publisher Combine's `append` builds one sequence.
    [1, 2].publisher.eraseToAnyPublisher().append([3, 4, 5]).subscribe(tracker)
    #expect(tracker.values == [1, 2, 3])
    tracker.request(.max(5))
    #expect(tracker.values == [1, 2, 3, 4, 5])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Concatenate"))
    let joined: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append([3, 4, 5])
    #expect(joined.sequence == [1, 2, 3, 4, 5])
  }

  // `append`/`prepend` (``Publishers/Concatenate``) checked against Combine's behaviour.
  /// Hands the suffix the demand the prefix left unsatisfied, drops values from the
  /// wrong upstream, and ignores events after the suffix completed.
  @Test func carriesDemandOverAndIgnoresTheInactiveUpstream() {
    let first = RecordingSubscription()
    let second = RecordingSubscription()
    let prefix = ManualPublisher<Int, TestError>(subscription: first)
    let suffix = ManualPublisher<Int, TestError>(subscription: second)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(10))
    defer { tracking.cancel() }
    prefix.append(suffix).subscribe(tracking)

    #expect(tracking.events == [.subscription("Concatenate")])
    #expect(first.history == [.requested(.max(10))])
    #expect(prefix.send(1) == .none)
    // Not subscribed to the suffix yet: nothing it sends gets through.
    #expect(suffix.send(-1) == .none)
    suffix.send(completion: .failure(.oops))
    #expect(tracking.values == [1])

    prefix.send(completion: .finished)
    #expect(second.history == [.requested(.max(9))])
    // The prefix is done: its late values are dropped.
    #expect(prefix.send(4000) == .none)
    #expect(suffix.send(5) == .none)
    suffix.send(completion: .finished)
    suffix.send(completion: .failure(.oops))
    #expect(suffix.send(7) == .none)
    #expect(
      tracking.events == [
        .subscription("Concatenate"), .value(1), .value(5), .completion(.finished),
      ])

    let late = RecordingSubscription()
    suffix.send(subscription: late)
    #expect(late.history == [.cancelled])
  }

  /// A prefix value sent re-entrantly from the downstream's `receive(_:)` only gets
  /// through while demand is left.
  @Test func reentrantPrefixValuesRespectDemand() {
    let prefix = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let depth = LockedBox(10)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(3)) { value in
      guard
        depth.withLock({ depth -> Bool in
          defer { depth -= 1 }
          return depth > 0
        })
      else { return }
      #expect(prefix.send(value + 1) == .none)
    }
    defer { tracking.cancel() }
    prefix.append().subscribe(tracking)
    #expect(prefix.send(1) == .none)
    #expect(tracking.values == [1, 2, 3])
  }

  /// The subscribers attached to the prefix and the suffix are distinct types that share
  /// the downstream subscription's identifier and description.
  @Test func upstreamSubscribersShareTheSubscriptionIdentity() throws {
    let prefix = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let suffix = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    defer { tracking.cancel() }
    prefix.append(suffix).subscribe(tracking)
    let subscription = try #require(tracking.subscription)
    let prefixSubscriber = try #require(prefix.rawSubscriber as? any Subscriber)
    #expect(prefixSubscriber.combineIdentifier == subscription.combineIdentifier)
    #expect(String(describing: prefixSubscriber) == "Concatenate")
    #expect(Mirror(reflecting: subscription).children.isEmpty)
    #expect(suffix.rawSubscriber == nil)

    prefix.send(completion: .finished)
    let suffixSubscriber = try #require(suffix.rawSubscriber as? any Subscriber)
    #expect(suffixSubscriber.combineIdentifier == subscription.combineIdentifier)
    #expect(type(of: prefixSubscriber) != type(of: suffixSubscriber))
  }

  /// Cancelling cancels the active upstream once and releases the suffix publisher.
  @Test func cancelCancelsTheActiveUpstreamAndReleasesTheSuffix() throws {
    let first = RecordingSubscription()
    let prefix = ManualPublisher<Int, Never>(subscription: first)
    weak var weakSuffix: ManualPublisher<Int, Never>?
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    do {
      let suffix = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
      weakSuffix = suffix
      prefix.append(suffix).subscribe(tracking)
    }
    #expect(weakSuffix != nil)
    let subscription = try #require(tracking.subscription)
    subscription.cancel()
    subscription.cancel()
    subscription.request(.max(2))
    #expect(first.history == [.cancelled])
    #expect(weakSuffix == nil)
    prefix.send(completion: .finished)
    #expect(tracking.events == [.subscription("Concatenate")])
    tracking.cancel()
  }
}
