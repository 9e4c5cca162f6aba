import ReactiveCore
import Testing

/// Subjects as Combine shapes them: how their subscriptions describe themselves, what a
/// late subscriber gets, and when they ask their upstreams for values.
@Suite struct SubjectCombineTests {
  @Test func subscriptionsNameTheirSubjectAlsoAfterCompletion() {
    let passthrough = PassthroughSubject<Int, TestError>()
    let tracking = TrackingSubscriber<Int, TestError>()
    passthrough.subscribe(tracking)
    passthrough.send(completion: .finished)
    #expect(tracking.events.first == .subscription("PassthroughSubject"))
    let current = CurrentValueSubject<Int, TestError>(1)
    let second = TrackingSubscriber<Int, TestError>()
    current.subscribe(second)
    current.send(completion: .finished)
    #expect(second.events.first == .subscription("CurrentValueSubject"))
  }

  @Test func aLateSubscriberGetsTheCompletionThroughAnEmptySubscription() {
    let subject = CurrentValueSubject<Int, TestError>(1)
    subject.send(completion: .failure(.oops))
    let tracking = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracking)
    #expect(tracking.events == [.subscription("Empty"), .completion(.failure(.oops))])
  }

  @Test func currentValueChangesAfterCompletionWithoutBeingSent() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let tracking = TrackingSubscriber<Int, Never>()
    subject.subscribe(tracking)
    subject.send(completion: .finished)
    subject.value = 42
    #expect(subject.value == 42)
    #expect(tracking.values == [1])
  }

  @Test func passthroughAsksUpstreamOnlyOnceSomeoneHasDemand() {
    let upstream = RecordingSubscription()
    let subject = PassthroughSubject<Int, Never>()
    subject.send(subscription: upstream)
    #expect(upstream.history == [])
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(tracking)
    #expect(upstream.history == [.requested(.unlimited)])
    let later = RecordingSubscription()
    subject.send(subscription: later)
    #expect(later.history == [.requested(.unlimited)])
  }

  @Test func currentValueAsksUpstreamAtOnce() {
    let upstream = RecordingSubscription()
    let subject = CurrentValueSubject<Int, Never>(0)
    subject.send(subscription: upstream)
    #expect(upstream.history == [.requested(.unlimited)])
  }

  @Test func aSubjectCancelsItsUpstreamsWhenItGoesAway() {
    let upstream = RecordingSubscription()
    do {
      let subject = PassthroughSubject<Int, Never>()
      subject.send(subscription: upstream)
      subject.send(subscription: upstream)
    }
    #expect(upstream.history == [.cancelled, .cancelled])
  }
}

/// Zero demand: Combine treats it as no demand in buffering and timing operators, and
/// traps on it where it traps (here, as there, a subject subscription).
@Suite struct ZeroDemandTests {
  @Test(arguments: ["buffer", "delay", "debounce", "throttle", "receiveOn", "timeout", "append"])
  func zeroDemandIsNoDemand(_ name: String) {
    // An upstream that records requests: a subject upstream would trap on the zero
    // demand that delay and receive(on:) pass on, in Combine as here.
    let subject = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let scheduler = TestScheduler()
    let publisher: AnyPublisher<Int, Never> =
      switch name {
      case "buffer":
        subject.buffer(size: 0, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
      case "delay": subject.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
      case "debounce":
        subject.debounce(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
      case "throttle":
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher()
      case "receiveOn": subject.receive(on: scheduler).eraseToAnyPublisher()
      case "timeout": subject.timeout(.seconds(1), scheduler: scheduler).eraseToAnyPublisher()
      default: subject.append(1).eraseToAnyPublisher()
      }
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.subscribe(tracking)
    tracking.request(.none)
    tracking.request(.max(1))
    #expect(tracking.completions.isEmpty)
  }

  @Test func dropFirstTrapsOnANegativeCountWhenSubscribedNotWhenMade() async {
    _ = Just(1).eraseToAnyPublisher().dropFirst(-1)
    await #expect(processExitsWith: .failure) {
      _ = Just(1).eraseToAnyPublisher().dropFirst(-1).sink { _ in }
    }
  }

  @Test func aSubjectSubscriptionTrapsOnZeroDemand() async {
    await #expect(processExitsWith: .failure) {
      let subject = PassthroughSubject<Int, Never>()
      let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
      subject.subscribe(tracking)
      tracking.request(.none)
    }
  }
}

/// Sequence and record subscriptions as Combine shapes them.
@Suite struct SequenceSubscriptionShapeTests {
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

/// What subject subscriptions show in their mirror and description.
@Suite struct SubjectReflectionTests {
  @Test func aConduitMirrorsItsSubjectSubscriberAndDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let held = LockedBox<(any Subscription)?>(nil)
    subject.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let mirror = held.withLock { $0 }.map { Mirror(reflecting: $0) }
    #expect(mirror?.children.map(\.label) == ["parent", "downstream", "demand", "subject"])
    let parent = mirror?.children.first { $0.label == "parent" }?.value
    #expect(parent.map { "\($0)" }?.contains("PassthroughSubject") == true)
  }

  @Test func publishedAndObjectWillChangeNameTheirOwnSubjects() {
    final class Model: ObservableObject {
      @Published var count = 0
    }
    let model = Model()
    let published = TrackingSubscriber<Int, Never>()
    model.$count.subscribe(published)
    #expect(published.events.first == .subscription("PublishedSubject"))
    let willChange = LockedBox<String?>(nil)
    model.objectWillChange.subscribe(
      AnySubscriber<Void, Never>(
        receiveSubscription: { subscription in willChange.withLock { $0 = "\(subscription)" } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    #expect(willChange.withLock { $0 } == "ObservableObjectPublisher")
  }
}

/// `multicast` and `makeConnectable` hand each subscriber a subscription of their own.
@Suite struct MulticastCombineTests {
  @Test func subscribersSeeAMulticastSubscriptionThatAsksTheSubjectForMore() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    multicast.subscribe(tracking)
    let connection = multicast.connect()
    upstream.send(1)
    upstream.send(2)
    #expect(tracking.events == [.subscription("Multicast"), .value(1), .value(2)])
    connection.cancel()
  }

  /// The subscriber that connects a subject to its upstream holds the subject weakly, as
  /// Combine's does: the subject keeps that subscriber, so a strong reference would be a
  /// cycle keeping a dropped subject alive (OpenCombine issue 186).
  @Test func aConnectionDoesNotKeepItsSubjectAlive() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let connection: any Cancellable
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      connection = publisher.multicast(subject: subject).connect()
    }
    #expect(weakSubject == nil)
    publisher.send(1)
    connection.cancel()
  }
}

/// `autoconnect()` and `share()` as Combine shapes them.
@Suite struct AutoconnectCombineTests {
  @Test func subscribersSeeTheUpstreamSubscriptionAndTheLastCancelDisconnects() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let shared = publisher.share()
    let first = TrackingSubscriber<Int, Never>()
    let second = TrackingSubscriber<Int, Never>()
    shared.subscribe(first)
    shared.subscribe(second)
    #expect(first.events.first == .subscription("Multicast"))
    first.cancel()
    #expect(upstream.history == [.requested(.unlimited)])
    second.cancel()
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
  }
}

/// Values of an empty type have no storage; a subject must deliver them like any other.
@Suite struct EmptyValueSubjectTests {
  /// Sends through generic code, where a `Void` value's address is whatever the caller
  /// passed for it (it once was taken for "no value" and cancelled the subscriber).
  private static func send<S: Subject>(_ value: S.Output, to subject: S, times: Int) {
    for _ in 0..<times { subject.send(value) }
  }

  @Test func everyVoidValueArrivesAndNothingIsCancelled() {
    let subject = PassthroughSubject<Void, Never>()
    let received = LockedBox(0)
    let cancelled = LockedBox(false)
    let cancellable = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
      .sink { received.withLock { $0 += 1 } }
    Self.send((), to: subject, times: 10_000)
    #expect(received.withLock { $0 } == 10_000)
    #expect(!cancelled.withLock { $0 })
    cancellable.cancel()
  }
}

/// A record subscription mirrors its sequence and its completion, as Combine's.
@Suite struct RecordReflectionTests {
  @Test func aRecordSubscriptionMirrorsItsCompletion() {
    let held = LockedBox<(any Subscription)?>(nil)
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let subscription = held.withLock { $0 }
    let labels = subscription.map { Mirror(reflecting: $0).children.map(\.label) }
    #expect(labels == ["sequence", "completion"])
    subscription?.cancel()
    held.withLock { $0 = nil }
  }
}

/// `Subscribers.Assign` reflects as Combine's.
@Suite struct AssignReflectionTests {
  final class Box { var value = 0 }

  @Test func mirrorsObjectKeyPathAndStatus() {
    let box = Box()
    let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
    #expect(assign.customMirror.children.map(\.label) == ["object", "keyPath", "status"])
    assign.cancel()
  }
}

/// A subject with a current value owes it to a subscriber that missed it for want of
/// demand, as Combine's `CurrentValueSubject` and `@Published` do.
@Suite struct PendingCurrentValueTests {
  private final class Model {
    @Published var state = 0
  }

  @Test func aMissedValueArrivesAtTheNextRequest() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(tracking)
    subject.send(1)
    subject.send(2)
    #expect(tracking.values == [0])
    tracking.request(.max(2))
    #expect(tracking.values == [0, 2])
    subject.send(3)
    #expect(tracking.values == [0, 2, 3])
  }

  @Test func aPublishedPropertyDeliversItsLatestValueOnDemand() {
    let model = Model()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    model.$state.subscribe(tracking)
    model.state += 1
    model.state += 2
    model.state += 3
    #expect(tracking.values == [0, 1])
    tracking.request(.max(10))
    #expect(tracking.values == [0, 1, 6])
  }

  @Test func aPassthroughSubjectOwesNothing() {
    let subject = PassthroughSubject<Int, Never>()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    subject.subscribe(tracking)
    subject.send(1)
    tracking.request(.max(1))
    #expect(tracking.values == [])
  }
}

/// `objectWillChange` is a signal: from the first request on, every send arrives whatever
/// the demand, as Combine's `ObservableObjectPublisher`.
@Suite struct ObservableObjectPublisherCombineTests {
  @Test func everySendArrivesAfterTheFirstRequest() {
    let publisher = ObservableObjectPublisher()
    let signals = LockedBox(0)
    let subscription = LockedBox<(any Subscription)?>(nil)
    let subscriber = AnySubscriber<Void, Never>(
      receiveSubscription: { held in
        subscription.withLock { $0 = held }
        held.request(.max(1))
      },
      receiveValue: { _ in
        signals.withLock { $0 += 1 }
        return .none
      })
    publisher.subscribe(subscriber)
    for _ in 0..<3 { publisher.send() }
    #expect(signals.withLock { $0 } == 3)
    // The publisher keeps its subscription until a cancel, as a subject does.
    subscription.withLock { $0.take() }?.cancel()
  }

  @Test func nothingArrivesBeforeARequestOrAfterACancel() throws {
    let publisher = ObservableObjectPublisher()
    let tracking = TrackingSubscriber<Signal, Never>(initialDemand: nil)
    publisher.map { Signal() }.subscribe(tracking)
    publisher.send()
    #expect(tracking.values.isEmpty)
    tracking.request(.max(1))
    publisher.send()
    publisher.send()
    #expect(tracking.values.count == 2)
    let subscription = try #require(tracking.subscription)
    #expect(Mirror(reflecting: subscription).children.isEmpty == false)
    tracking.cancel()
    publisher.send()
    #expect(tracking.values.count == 2)
  }

  /// An `Equatable` stand-in for `Void`.
  struct Signal: Equatable {}
}
