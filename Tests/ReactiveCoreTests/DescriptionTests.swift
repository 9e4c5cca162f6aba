import ReactiveCore
import Testing

/// A publisher that records how the subscriber attached to it describes itself.
private final class RecordingPublisher: Publisher, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = Never
  var subscriberDescriptions: [String] = []

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriberDescriptions.append(String(describing: subscriber))
    subscriber.receive(subscription: Subscriptions.empty)
  }
}

@Suite struct DescriptionTests {
  @Test func operatorsDescribeThemselvesAsCombineDoes() {
    let cases: [(String, (RecordingPublisher) -> Void)] = [
      ("Map", { _ = $0.map { $0 }.sink { _ in } }),
      ("Filter", { _ = $0.filter { _ in true }.sink { _ in } }),
      ("CompactMap", { _ = $0.compactMap { $0 }.sink { _ in } }),
      ("Scan", { _ = $0.scan(0, +).sink { _ in } }),
      ("RemoveDuplicates", { _ = $0.removeDuplicates().sink { _ in } }),
      (
        "TryMap", { _ = $0.tryMap { $0 }.sink(receiveCompletion: { _ in }, receiveValue: { _ in }) }
      ),
      ("Reduce", { _ = $0.reduce(0, +).sink { _ in } }),
      ("First", { _ = $0.first().sink { _ in } }),
      ("Sink", { _ = $0.sink { _ in } }),
    ]
    for (name, attach) in cases {
      let publisher = RecordingPublisher()
      attach(publisher)
      #expect(publisher.subscriberDescriptions == [name])
    }
  }

  /// Combine's sink takes values and a completion even before its subscription (OpenCombine's
  /// SinkTests, run against Combine, check this); after the completion it takes nothing.
  @Test func eventsBeforeASubscriptionReachTheSinkAsInCombine() {
    var values: [Int] = []
    var completions = 0
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
    #expect(sink.receive(1) == .none)
    sink.receive(completion: .finished)
    #expect(sink.receive(2) == .none)
    sink.receive(completion: .finished)
    #expect(values == [1])
    #expect(completions == 1)
  }

  @Test func aSecondSubscriptionIsCancelled() {
    var cancelled = false
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: Subscriptions.empty)
    sink.receive(subscription: AnyCancellableSubscription { cancelled = true })
    #expect(cancelled)
  }
}

/// A subscription that reports its cancellation.
private final class AnyCancellableSubscription: Subscription, @unchecked Sendable {
  let onCancel: () -> Void
  init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }
  func request(_ demand: Subscribers.Demand) {}
  func cancel() { onCancel() }
}

/// A sink's cancel before its subscription, as Combine's.
@Suite struct SinkCancelCombineTests {
  @Test func aCancelBeforeTheSubscriptionKeepsTheSinkUsable() {
    var values: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    sink.cancel()
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(sink)
    subject.send(3)
    #expect(values == [3])
    sink.cancel()
  }

  /// Combine's sink lets go of both closures when cancelled, even while someone holds it.
  @Test func aCancelReleasesBothClosures() {
    weak var weakToken: Token?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let token = Token()
      weakToken = token
      sink = Subscribers.Sink(
        receiveCompletion: { _ in withExtendedLifetime(token) {} },
        receiveValue: { _ in withExtendedLifetime(token) {} })
    }
    PassthroughSubject<Int, Never>().subscribe(sink)
    #expect(weakToken != nil)
    sink.cancel()
    #expect(weakToken == nil)
  }

  /// A cancel from inside the value closure releases it once it has returned.
  @Test func aCancelFromInsideTheValueClosureReleasesItAfterwards() {
    weak var weakToken: Token?
    let subject = PassthroughSubject<Int, Never>()
    let held = LockedBox<Subscribers.Sink<Int, Never>?>(nil)
    do {
      let token = Token()
      weakToken = token
      let sink = Subscribers.Sink<Int, Never>(
        receiveCompletion: { _ in },
        receiveValue: { _ in
          held.withLock { $0 }?.cancel()
          #expect(weakToken != nil)
          withExtendedLifetime(token) {}
        })
      held.withLock { $0 = sink }
    }
    subject.subscribe(held.withLock { $0! })
    subject.send(1)
    #expect(weakToken == nil)
    held.withLock { $0 = nil }
  }
}

/// A publisher that keeps the subscriber attached to it, for reflecting on it.
private final class CapturingPublisher<Failure: Error>: Publisher, @unchecked Sendable {
  typealias Output = Int
  var subscriber: Any?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
    self.subscriber = subscriber
    subscriber.receive(subscription: Subscriptions.empty)
  }

  /// The labels and descriptions of the kept subscriber's mirror children.
  var children: [String] {
    Mirror(reflecting: subscriber!).children.map { "\($0.label ?? "_")=\($0.value)" }
  }
}

/// Mirrors as Combine's: what debuggers and OpenCombine's reflection tests see.
@Suite struct ReflectionTests {
  @Test func aClosureBuiltAnySubscriberReflectsAsItsDescription() {
    let mirror = Mirror(reflecting: AnySubscriber<Int, Never>())
    #expect(String(describing: mirror.subjectType) == "String")
    #expect(mirror.children.isEmpty)
  }

  @Test func anObjectsCombineIdentifierIsItsAddress() {
    let object = Token()
    let expected = "0x" + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
    #expect(CombineIdentifier(object).description == expected)
  }

  @Test func scanShowsItsDownstreamAndRunningResult() {
    let publisher = CapturingPublisher<Never>()
    let cancellable = publisher.scan(10, +).sink { _ in }
    #expect(publisher.children.map { $0.prefix(while: { $0 != "=" }) } == ["downstream", "result"])
    #expect(publisher.children.last == "result=10")
    _ = (publisher.subscriber as? any Subscriber<Int, Never>)?.receive(5)
    #expect(publisher.children.last == "result=15")
    cancellable.cancel()
  }

  @Test func keyPathMapShowsItsKeyPaths() {
    let publisher = CapturingPublisher<Never>()
    let cancellable = publisher.map(\.self, \.bitWidth).sink { _ in }
    #expect(publisher.children.map { $0.prefix(while: { $0 != "=" }) } == ["keyPath0", "keyPath1"])
    cancellable.cancel()
  }

  @Test func assertNoFailureShowsWhereItTraps() {
    let publisher = CapturingPublisher<TestError>()
    let cancellable = publisher.assertNoFailure("PREFIX", file: "SomeFile.swift", line: 1987)
      .sink { _ in }
    #expect(publisher.children == ["file=SomeFile.swift", "line=1987", "prefix=PREFIX"])
    cancellable.cancel()
  }
}
