// Eight threads at once on a two-core machine against subjects and fan-in operators.
// Correctness only: nothing lost, repeated, reordered per sender or late; no timing.

import Dispatch
import ModelTesting
import ReactiveCore
import Synchronization
import Testing

/// Proves, with eight threads released together (more threads than cores, so that they
/// are preempted mid-send), that a subject and the operators that fan values in deliver
/// every value exactly once, each sender's values in the order it sent them, nothing
/// after the completion or after `cancel()` returns, and let go of every subscriber.
@Suite struct OversubscribedStressTests {
  static let threads = 8

  /// A value sent by one thread: which thread, its place among that thread's sends, and
  /// a mark the test gives it (what the sender knew when it sent it).
  struct Sent: Sendable, Equatable {
    var sender: Int
    var seq: Int
    var mark = 0
  }

  /// Proves that one subscriber's deliveries never overlap, bring each sender's values
  /// exactly once and in order, and stop at the completion, which comes at most once.
  final class OrderProbe: Sendable {
    /// The next `seq` expected from each sender, and how many values broke that order.
    private let expected: LockedBox<(next: [Int], broken: Int)>
    private let overlap = OverlapProbe()
    let completions = Atomic<Int>(0)
    let afterCompletion = Atomic<Int>(0)

    init(senders: Int) { expected = LockedBox((Array(repeating: 0, count: senders), 0)) }

    /// Records a value; a negative sender (a subject's initial value) is not counted.
    func receive(_ value: Sent) {
      overlap.during {
        if completions.load(ordering: .sequentiallyConsistent) > 0 {
          afterCompletion.add(1, ordering: .relaxed)
        }
        if value.sender >= 0 {
          expected.withLock { state in
            if value.seq == state.next[value.sender] {
              state.next[value.sender] += 1
            } else {
              state.broken += 1
            }
          }
        }
      }
    }

    func complete() {
      overlap.during {
        completions.add(1, ordering: .sequentiallyConsistent)
      }
    }

    /// Expects exactly `counts[sender]` values from each sender, in order, and
    /// `completions` completions.
    func expectExactly(
      _ counts: [Int], completions: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let (next, broken) = expected.withLock { $0 }
      #expect(broken == 0, "values lost, repeated or out of order", sourceLocation: sourceLocation)
      #expect(next == counts, sourceLocation: sourceLocation)
      #expect(overlap.overlaps.load(ordering: .relaxed) == 0, sourceLocation: sourceLocation)
      #expect(
        self.completions.load(ordering: .relaxed) == completions, sourceLocation: sourceLocation)
      #expect(afterCompletion.load(ordering: .relaxed) == 0, sourceLocation: sourceLocation)
    }
  }

  /// How the senders put values into the subject.
  enum Feed: String, CaseIterable, Sendable {
    case passthroughSend
    case currentValueSend
    case currentValueAssign
  }

  /// Eight senders, four subscribers (two behind operators): every subscriber gets every
  /// value once in each sender's order. A current-value subject's `value`, read by each
  /// sender after each write, never goes back to an older write of any sender.
  @Test(arguments: Feed.allCases)
  func eightSendersReachEverySubscriberOnceInEachSendersOrder(feed: Feed) {
    let perSender = 3_000
    let passthrough = PassthroughSubject<Sent, Never>()
    let current = CurrentValueSubject<Sent, Never>(Sent(sender: -1, seq: 0))
    let publisher =
      feed == .passthroughSend ? passthrough.eraseToAnyPublisher() : current.eraseToAnyPublisher()
    let probes = (0..<4).map { _ in OrderProbe(senders: Self.threads) }
    let cancellables = probes.enumerated().map { index, probe in
      let chain: AnyPublisher<Sent, Never> =
        switch index {
        case 0: publisher
        case 1: publisher.map { $0 }.eraseToAnyPublisher()
        case 2: publisher.filter { _ in true }.eraseToAnyPublisher()
        default: publisher.handleEvents().eraseToAnyPublisher()
        }
      return chain.sink(receiveCompletion: { _ in probe.complete() }, receiveValue: probe.receive)
    }
    let readsWentBack = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { sender in
      var seen = Array(repeating: -1, count: Self.threads)
      for seq in 0..<perSender {
        if seq % 16 == 0 { yieldToOtherThreads() }
        let value = Sent(sender: sender, seq: seq)
        switch feed {
        case .passthroughSend: passthrough.send(value)
        case .currentValueSend: current.send(value)
        case .currentValueAssign: current.value = value
        }
        guard feed != .passthroughSend else { continue }
        let read = current.value
        if read.sender >= 0 {
          if read.seq < seen[read.sender] { readsWentBack.add(1, ordering: .relaxed) }
          seen[read.sender] = read.seq
        }
      }
    }
    passthrough.send(completion: .finished)
    current.send(completion: .finished)
    for probe in probes {
      probe.expectExactly(Array(repeating: perSender, count: Self.threads), completions: 1)
    }
    #expect(readsWentBack.load(ordering: .relaxed) == 0)
    for cancellable in cancellables { cancellable.cancel() }
  }

  /// What one short-lived subscriber counts about the values that reach it.
  final class Generation: Sendable {
    let number: Int
    /// Values whose sender saw this generation cancelled before sending: never allowed.
    let sentAfterCancel = Atomic<Int>(0)
    /// Values delivered once the cancel had returned: in flight, at most one per sender.
    let deliveredAfterCancel = Atomic<Int>(0)
    init(number: Int) { self.number = number }
  }

  /// A weak reference to what a cancelled subscriber held.
  struct WeakToken: @unchecked Sendable {
    weak var object: Token?
  }

  /// One thread subscribes and cancels, generation after generation, while seven send.
  /// No value sent after `cancel()` returned reaches the cancelled subscriber; the values
  /// in flight at the cancel are at most one per sending thread; a subscriber that stays
  /// gets every value once, in each sender's order; every cancelled one is released.
  @Test func subscribeAndCancelChurnWhileSevenThreadsSend() {
    let subject = PassthroughSubject<Sent, Never>()
    let steady = OrderProbe(senders: Self.threads)
    let steadyCancellable = subject.sink(
      receiveCompletion: { _ in steady.complete() }, receiveValue: steady.receive)
    let generations = (1...1_500).map(Generation.init)
    let cancelledThrough = Atomic<Int>(0)
    let churnDone = Atomic<Bool>(false)
    let sentCounts = LockedBox(Array(repeating: 0, count: Self.threads))
    let tokens = LockedBox<[WeakToken]>([])
    onThreadsAtOnce(Self.threads) { thread in
      guard thread == 0 else {
        var seq = 0
        // Bounded, so that a slow churn under the sanitizer does not grow the run.
        while !churnDone.load(ordering: .acquiring) && seq < 50_000 {
          if seq % 16 == 0 { yieldToOtherThreads() }
          let mark = cancelledThrough.load(ordering: .acquiring)
          subject.send(Sent(sender: thread, seq: seq, mark: mark))
          seq += 1
        }
        sentCounts.withLock { $0[thread] = seq }
        return
      }
      for generation in generations {
        let token = Token()
        tokens.withLock { $0.append(WeakToken(object: token)) }
        let cancellable = subject.sink { [token] value in
          withExtendedLifetime(token) {}
          if value.mark >= generation.number {
            generation.sentAfterCancel.add(1, ordering: .relaxed)
          }
          if cancelledThrough.load(ordering: .acquiring) >= generation.number {
            generation.deliveredAfterCancel.add(1, ordering: .relaxed)
          }
        }
        _ = consume token
        cancellable.cancel()
        cancelledThrough.store(generation.number, ordering: .releasing)
      }
      churnDone.store(true, ordering: .releasing)
    }
    subject.send(completion: .finished)
    steady.expectExactly(sentCounts.withLock { $0 }, completions: 1)
    let sentAfter = generations.map { $0.sentAfterCancel.load(ordering: .relaxed) }
    #expect(sentAfter.allSatisfy { $0 == 0 }, "a value sent after cancel() returned arrived")
    let inFlight = generations.map { $0.deliveredAfterCancel.load(ordering: .relaxed) }
    #expect(inFlight.allSatisfy { $0 <= Self.threads - 1 }, "more in flight than senders")
    #expect(tokens.withLock { $0.allSatisfy { $0.object == nil } }, "a subscriber was kept")
    steadyCancellable.cancel()
  }

  /// The two ways to merge eight publishers.
  enum FanIn: String, CaseIterable, Sendable {
    case mergeMany
    case merge8
  }

  /// Eight subjects merged, each fed by its own thread and then finished: every value
  /// arrives once, each source's in order, and the one completion comes after them all.
  @Test(arguments: FanIn.allCases)
  func eightSourcesMergedOneThreadEach(fanIn: FanIn) {
    let perSender = 4_000
    let subjects = (0..<Self.threads).map { _ in PassthroughSubject<Sent, Never>() }
    let merged: AnyPublisher<Sent, Never> =
      switch fanIn {
      case .mergeMany: Publishers.MergeMany(subjects).eraseToAnyPublisher()
      case .merge8:
        subjects[0].merge(
          with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6],
          subjects[7]
        ).eraseToAnyPublisher()
      }
    let probe = OrderProbe(senders: Self.threads)
    let cancellable = merged.sink(
      receiveCompletion: { _ in probe.complete() }, receiveValue: probe.receive)
    onThreadsAtOnce(Self.threads) { sender in
      for seq in 0..<perSender {
        if seq % 16 == 0 { yieldToOtherThreads() }
        subjects[sender].send(Sent(sender: sender, seq: seq))
      }
      subjects[sender].send(completion: .finished)
    }
    probe.expectExactly(Array(repeating: perSender, count: Self.threads), completions: 1)
    cancellable.cancel()
  }

  /// `receive(on:)` a serial queue, fed by eight threads: every value is delivered once,
  /// on that queue, each sender's in order, and the completion last.
  @Test func receiveOnASerialQueueFromEightSenders() {
    let perSender = 2_000
    let queue = DispatchQueue(label: "ripple.oversubscribed.receive")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 1)
    let subject = PassthroughSubject<Sent, Never>()
    let probe = OrderProbe(senders: Self.threads)
    let offQueue = Atomic<Int>(0)
    let primed = Atomic<Bool>(false)
    let cancellable = subject.receive(on: queue).sink(
      receiveCompletion: { _ in
        if DispatchQueue.getSpecific(key: key) != 1 { offQueue.add(1, ordering: .relaxed) }
        probe.complete()
      },
      receiveValue: { value in
        if DispatchQueue.getSpecific(key: key) != 1 { offQueue.add(1, ordering: .relaxed) }
        if value.sender < 0 {
          primed.store(true, ordering: .releasing)
        } else {
          probe.receive(value)
        }
      })
    // The demand reaches the subject through the queue: send probes until one gets
    // through (each `sync` lets everything queued before it run).
    for _ in 0..<1_000 where !primed.load(ordering: .acquiring) {
      subject.send(Sent(sender: -1, seq: 0))
      queue.sync {}
    }
    let demandArrived = primed.load(ordering: .acquiring)
    #expect(demandArrived, "the demand never reached the subject")
    onThreadsAtOnce(Self.threads) { sender in
      for seq in 0..<perSender {
        if seq % 16 == 0 { yieldToOtherThreads() }
        subject.send(Sent(sender: sender, seq: seq))
      }
    }
    subject.send(completion: .finished)
    queue.sync {}
    probe.expectExactly(Array(repeating: perSender, count: Self.threads), completions: 1)
    #expect(offQueue.load(ordering: .relaxed) == 0)
    cancellable.cancel()
  }
}
