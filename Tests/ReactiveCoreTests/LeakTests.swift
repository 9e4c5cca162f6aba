import ReactiveCore
import Synchronization
import Testing

@Suite struct LeakTests {
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

  @Test func droppingTheCancellableCancels() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    do {
      let cancellable = subject.sink { received.append($0) }
      subject.send(1)
      _ = cancellable
    }
    subject.send(2)
    #expect(received == [1])
  }

  @Test func anyCancellableReleasesItsClosureAfterCancel() {
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = AnyCancellable { _ = token }
    }
    cancellable?.cancel()
    #expect(weakToken == nil)
  }

  @Test func futureReleasesSubscriberAfterDelivery() {
    weak var weakToken: Token?
    let future = Future<Int, Never> { $0(.success(1)) }
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = future.sink { _ in _ = token }
    }
    #expect(weakToken == nil)
    _ = cancellable
  }
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

@Suite struct ValueTypeSubscriptionTests {
  @Test func aSinkRequestsFromAndCancelsAStructSubscription() {
    let log = LockedLog()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: ValueSubscription(log: log))
    sink.cancel()
    #expect(log.all == ["request unlimited", "cancel"])
  }
}
