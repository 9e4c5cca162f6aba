import Dispatch
import ReactiveCore
import Synchronization
import Testing

/// `receive(on:)` a `DispatchQueue` without options hops values through one block made
/// once; these pin that it still behaves as Combine's one-closure-per-value hop.
@Suite struct ReceiveOnDispatchQueueTests {
  /// Records on the queue it is handed; reached only from that queue and after a `sync`.
  final class Log: @unchecked Sendable {
    var entries: [String] = []
  }

  @Test func valuesInterleaveWithOtherWorkOnTheQueueAsScheduled() {
    let queue = DispatchQueue(label: "hop")
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    let blocker = DispatchSemaphore(value: 0)
    // Hold the queue so that everything below is pending at once.
    queue.async { blocker.wait() }
    let cancellable = subject.receive(on: queue).sink { log.entries.append("value \($0)") }
    subject.send(1)
    queue.async { log.entries.append("other work") }
    subject.send(2)
    subject.send(3)
    blocker.signal()
    queue.sync {}
    #expect(log.entries == ["value 1", "other work", "value 2", "value 3"])
    cancellable.cancel()
  }

  @Test func everyValueFromEightThreadsArrivesOnceInEachSendersOrder() {
    let queue = DispatchQueue(label: "hop")
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    let cancellable = subject.receive(on: queue).sink { log.entries.append("\($0)") }
    DispatchQueue.concurrentPerform(iterations: 8) { sender in
      for index in 0..<2_000 { subject.send(sender * 1_000_000 + index) }
    }
    queue.sync {}
    let values = log.entries.compactMap(Int.init)
    #expect(values.count == 16_000)
    for sender in 0..<8 {
      let own = values.filter { $0 / 1_000_000 == sender }
      #expect(own == (0..<2_000).map { sender * 1_000_000 + $0 })
    }
    cancellable.cancel()
  }

  @Test func aCancelDropsValuesStillWaitingAndReleasesTheSubscriberOnceTheyRan() {
    let queue = DispatchQueue(label: "hop")
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    final class Token: Sendable {}
    weak var weakToken: Token?
    let blocker = DispatchSemaphore(value: 0)
    queue.async { blocker.wait() }
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.receive(on: queue).sink {
        _ = token
        log.entries.append("\($0)")
      }
    }
    subject.send(1)
    subject.send(2)
    cancellable?.cancel()
    cancellable = nil
    blocker.signal()
    queue.sync {}
    #expect(log.entries.isEmpty)
    #expect(weakToken == nil)
  }

  /// Records what reaches it, whatever happens, and keeps its subscription to cancel.
  final class Collector: Subscriber, @unchecked Sendable {
    var entries: [String] = []
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) {
      self.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      entries.append("\(input)")
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { entries.append("finished") }
  }

  /// Once the upstream completed, a cancel changes nothing: the values and the completion
  /// already scheduled are delivered, as in Combine (the other schedulers' path does the
  /// same).
  @Test(arguments: [nil, DispatchQueue.SchedulerOptions(qos: .default)])
  func aCompletionScheduledBeforeACancelIsStillDelivered(
    options: DispatchQueue.SchedulerOptions?
  ) {
    let queue = DispatchQueue(label: "hop")
    let subject = PassthroughSubject<Int, Never>()
    let collector = Collector()
    let blocker = DispatchSemaphore(value: 0)
    queue.async { blocker.wait() }
    subject.receive(on: queue, options: options).subscribe(collector)
    subject.send(1)
    subject.send(completion: .finished)
    collector.subscription?.cancel()
    blocker.signal()
    queue.sync {}
    #expect(collector.entries == ["1", "finished"])
    // The subscription keeps its subscriber for life, as Combine's does: the collector
    // lets go of it to end the cycle.
    collector.subscription = nil
  }

  /// Once the subscriber cancels and the pending blocks ran, nothing keeps the hop or
  /// the subscriber (no cycle through the block made once), as with a closure per value.
  @Test(arguments: [nil, DispatchQueue.SchedulerOptions(qos: .default)])
  func nothingOutlivesACancelOncePendingBlocksRan(options: DispatchQueue.SchedulerOptions?) {
    let queue = DispatchQueue(label: "hop")
    let subject = PassthroughSubject<Int, Never>()
    weak var weakCollector: Collector?
    let blocker = DispatchSemaphore(value: 0)
    queue.async { blocker.wait() }
    do {
      let collector = Collector()
      weakCollector = collector
      subject.receive(on: queue, options: options).subscribe(collector)
      subject.send(1)
      subject.send(2)
      collector.subscription?.cancel()
      collector.subscription = nil
    }
    blocker.signal()
    queue.sync {}
    #expect(weakCollector == nil)
  }
}
