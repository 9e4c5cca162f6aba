import Dispatch
import ReactiveCore
import Testing

/// `append`/`prepend` (``Publishers/Concatenate``) checked against Combine's behaviour.
@Suite struct ConcatenateCombineTests {
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

/// `zip` checked against Combine's behaviour.
@Suite struct ZipCombineTests {
  /// A complete tuple goes downstream whatever the demand; demand only paces the
  /// upstreams.
  @Test func sendsCompleteTuplesRegardlessOfDemand() {
    let a = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let b = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    #expect(a.send(100) == .none)
    #expect(b.send(1) == .none)
    #expect(a.send(200) == .none)
    #expect(b.send(2) == .none)
    #expect(tracking.values == [101, 202])
  }

  /// Demand arriving during a delivery reaches the completing side as its return value
  /// and every other side as a request.
  @Test func demandDuringDeliveryIsReturnedToTheCompletingSide() {
    let first = RecordingSubscription()
    let second = RecordingSubscription()
    let a = ManualPublisher<Int, TestError>(subscription: first)
    let b = ManualPublisher<Int, TestError>(subscription: second)
    let subscription = LockedBox<(any Subscription)?>(nil)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: .max(10)) { _ in
      subscription.withLock { $0 }?.request(.max(666))
    }
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    subscription.withLock { $0 = tracking.subscription }
    #expect(a.send(1) == .none)
    #expect(b.send(1) == .max(666))
    #expect(first.history == [.requested(.max(10)), .requested(.max(666))])
    #expect(second.history == [.requested(.max(10))])
    subscription.withLock { $0 = nil }
  }

  /// Demand the downstream returns goes back to the side that completed the tuple.
  @Test func returnedDemandGoesToTheCompletingSide() {
    let a = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let b = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let c = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, TestError>(demandPerValue: .max(1))
    defer { tracking.cancel() }
    a.zip(b, c) { $0 + $1 + $2 }.subscribe(tracking)
    #expect(a.send(1) == .none)
    #expect(b.send(1) == .none)
    #expect(c.send(1) == .max(1))
    #expect(tracking.values == [3])
  }

  /// A failure goes downstream and cancels every upstream, the failed one included.
  @Test func failureCancelsEveryUpstream() {
    let first = RecordingSubscription()
    let second = RecordingSubscription()
    let a = ManualPublisher<Int, TestError>(subscription: first)
    let b = ManualPublisher<Int, TestError>(subscription: second)
    let tracking = TrackingSubscriber<Int, TestError>()
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    a.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("Zip"), .completion(.failure(.oops))])
    #expect(first.history == [.requested(.unlimited), .cancelled])
    #expect(second.history == [.requested(.unlimited), .cancelled])
    #expect(b.send(1) == .none)
    b.send(completion: .finished)
    #expect(tracking.events.count == 2)
  }

  /// A finish that arrives during a delivery, while that side still has values queued,
  /// does not end the zip; it ends once that side runs out.
  @Test func finishWaitsForQueuedValues() {
    let a = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let second = RecordingSubscription()
    let b = ManualPublisher<Int, TestError>(subscription: second)
    let tracking = TrackingSubscriber<Int, TestError> { _ in a.send(completion: .finished) }
    defer { tracking.cancel() }
    a.zip(b) { $0 + $1 }.subscribe(tracking)
    a.send(1)
    a.send(1)
    b.send(1)
    #expect(tracking.events == [.subscription("Zip"), .value(2)])
    b.send(2)
    #expect(
      tracking.events == [.subscription("Zip"), .value(2), .value(3), .completion(.finished)])
    #expect(second.history == [.requested(.unlimited), .cancelled])
  }

  /// Values sent from two threads at once all pair up, in order, with none stranded
  /// when one side queues a value just as the other's delivery ends.
  @Test func concurrentSidesPairEveryValueInOrder() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let tracking = TrackingSubscriber<Int, Never>()
    defer { tracking.cancel() }
    a.zip(b) { $0 - $1 }.subscribe(tracking)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<5_000 { (side == 0 ? a : b).send(value) }
    }
    #expect(tracking.values.count == 5_000)
    #expect(tracking.values.allSatisfy { $0 == 0 })
  }
}
