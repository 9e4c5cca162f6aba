import ReactiveCore
import Synchronization
import Testing

/// A subscription that reports its cancellation.
private final class AnyCancellableSubscription: Subscription, @unchecked Sendable {
  let onCancel: () -> Void
  init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }
  func request(_ demand: Subscribers.Demand) {}
  func cancel() { onCancel() }
}

/// A subscription that is a struct, as a third-party publisher may write one.
private struct ValueSubscription: Subscription {
  let log: LockedLog
  let combineIdentifier = CombineIdentifier()
  func request(_ demand: Subscribers.Demand) { log.append("request \(demand)") }
  func cancel() { log.append("cancel") }
}

private final class LockedLog: @unchecked Sendable {
  private let lock = NSLockLike()
  private var entries: [String] = []
  func append(_ entry: String) { lock.run { entries.append(entry) } }
  var all: [String] { lock.run { entries } }
}

/// A minimal lock for the test's own bookkeeping.
private final class NSLockLike: @unchecked Sendable {
  private let mutex = Mutex(())
  func run<T>(_ body: () -> T) -> T { mutex.withLock { _ in body() } }
}

@Suite struct SinkTests {
  @Test func sinkAndAssignDescriptions() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.description == "Sink")
    #expect(String(describing: sink.playgroundDescription) == "Sink")
    final class Box { var value = 0 }
    let box = Box()
    let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
    #expect(assign.description == "Assign Box.")
    _ = [1, 2, 3].publisher.assign(to: \.value, on: box)
    #expect(box.value == 3)
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

  // A sink's cancel before its subscription, as Combine's.
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

  /// The upstream completes from inside the value closure (a subject sent its completion
  /// from there): the closure stays alive until it returns, then both closures go.
  @Test func aCompletionFromInsideTheValueClosureReleasesItAfterwards() {
    weak var weakToken: Token?
    let subject = PassthroughSubject<Int, Never>()
    let completions = LockedBox(0)
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.map { $0 }.sink(
        receiveCompletion: { _ in completions.withLock { $0 += 1 } },
        receiveValue: { _ in
          subject.send(completion: .finished)
          #expect(weakToken != nil)
          withExtendedLifetime(token) {}
        })
    }
    subject.send(1)
    #expect(completions.withLock { $0 } == 1)
    #expect(weakToken == nil)
    _ = cancellable
  }

  @Test func cancellingASinkReleasesItsClosures() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.map { $0 + 1 }.sink { _ in _ = token }
    }
    #expect(weakToken != nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
  }

  @Test func completingReleasesClosures() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.filter { _ in true }.sink(
        receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    subject.send(completion: .finished)
    #expect(weakToken == nil)
    _ = cancellable
  }

  @Test func aSinkRequestsFromAndCancelsAStructSubscription() {
    let log = LockedLog()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: ValueSubscription(log: log))
    sink.cancel()
    #expect(log.all == ["request unlimited", "cancel"])
  }
}
