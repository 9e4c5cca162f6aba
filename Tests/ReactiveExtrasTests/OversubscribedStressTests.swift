// Eight threads at once on a two-core machine against ReactiveExtras' subjects, relays and
// combining operators. Correctness only: nothing lost, repeated, reordered or late.

import ModelTesting
import ReactiveCore
import ReactiveExtras
import Synchronization
import Testing

/// Proves, with eight threads released together (more threads than cores), that the
/// replay subject, the relays, `zip` over a collection and `withLatestFrom` deliver each
/// value exactly once and in each sender's order, and end exactly once, last.
@Suite struct OversubscribedStressTests {
  static let threads = 8

  /// A value sent by one thread: which thread, and its place among that thread's sends.
  struct Sent: Sendable, Equatable {
    var sender: Int
    var seq: Int
  }

  /// Proves that one subscriber's deliveries never overlap, that the values from each
  /// sender are a run without gaps or repeats, in order, and that the completion comes
  /// at most once and last.
  final class RunProbe: Sendable {
    /// Per sender, the first `seq` received and the next one expected; and how many
    /// values broke that order.
    private let runs: LockedBox<(first: [Int?], next: [Int], broken: Int)>
    private let overlap = OverlapProbe()
    let completions = Atomic<Int>(0)
    let afterCompletion = Atomic<Int>(0)

    init(senders: Int) {
      runs = LockedBox(
        (Array(repeating: nil, count: senders), Array(repeating: 0, count: senders), 0))
    }

    /// Records a value; a negative sender (an initial value) is not counted.
    func receive(_ value: Sent) {
      overlap.during {
        if completions.load(ordering: .sequentiallyConsistent) > 0 {
          afterCompletion.add(1, ordering: .relaxed)
        }
        if value.sender >= 0 {
          runs.withLock { runs in
            if runs.first[value.sender] == nil {
              runs.first[value.sender] = value.seq
            } else if value.seq != runs.next[value.sender] {
              runs.broken += 1
            }
            runs.next[value.sender] = value.seq + 1
          }
        }
      }
    }

    func complete() { completions.add(1, ordering: .sequentiallyConsistent) }

    /// Per sender, the first `seq` received (`nil` for none) and one past the last.
    var received: [(first: Int?, end: Int)] {
      runs.withLock { runs in runs.first.indices.map { (runs.first[$0], runs.next[$0]) } }
    }

    /// Expects no broken run, no overlap, `completions` completions and nothing after.
    func expectClean(completions: Int, sourceLocation: SourceLocation = #_sourceLocation) {
      let broken = runs.withLock { $0.broken }
      #expect(broken == 0, "a gap, a repeat or a reordering", sourceLocation: sourceLocation)
      #expect(overlap.overlaps.load(ordering: .relaxed) == 0, sourceLocation: sourceLocation)
      #expect(
        self.completions.load(ordering: .relaxed) == completions, sourceLocation: sourceLocation)
      #expect(afterCompletion.load(ordering: .relaxed) == 0, sourceLocation: sourceLocation)
    }

    /// Expects every one of `perSender` values from each sender, once, in order.
    func expectEverything(
      _ perSender: Int, completions: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      expectClean(completions: completions, sourceLocation: sourceLocation)
      for run in received {
        #expect(run.first == 0 && run.end == perSender, sourceLocation: sourceLocation)
      }
    }
  }

  /// Four threads send into a replay subject while four others keep subscribing: each
  /// subscriber gets, from every sender, one unbroken run that ends with its last value
  /// (its replay, then live values: nothing missed or repeated in between), then the one
  /// completion. With a buffer that holds everything, every run starts at the first value.
  @Test(arguments: [0, 3, 64, 4 * 400])
  func replaySubjectJoinersGetAnUnbrokenRunOfEverySender(bufferSize: Int) {
    let senders = 4
    let perSender = 400
    let subject = ReplaySubject<Sent, Never>(bufferSize: bufferSize)
    let early = RunProbe(senders: senders)
    let earlyCancellable = subject.sink(
      receiveCompletion: { _ in early.complete() }, receiveValue: early.receive)
    let joined = LockedBox<[(RunProbe, AnyCancellable)]>([])
    let sent = Atomic<Int>(0)
    let joinsPerThread = 8
    onThreadsAtOnce(Self.threads) { thread in
      guard thread >= senders else {
        for seq in 0..<perSender {
          if seq % 16 == 0 { yieldToOtherThreads() }
          subject.send(Sent(sender: thread, seq: seq))
          sent.add(1, ordering: .relaxed)
        }
        return
      }
      let joiners = Self.threads - senders
      for join in 0..<joinsPerThread {
        // Spread the joins over the sends: the n-th of all joins waits for n/32 of them.
        let nth = join * joiners + thread - senders
        let due = nth * senders * perSender / (joinsPerThread * joiners)
        while sent.load(ordering: .relaxed) < due { yieldToOtherThreads() }
        let probe = RunProbe(senders: senders)
        let cancellable = subject.sink(
          receiveCompletion: { _ in probe.complete() }, receiveValue: probe.receive)
        joined.withLock { $0.append((probe, cancellable)) }
      }
    }
    subject.send(completion: .finished)
    early.expectEverything(perSender, completions: 1)
    for (probe, _) in joined.withLock({ $0 }) {
      probe.expectClean(completions: 1)
      for run in probe.received {
        // A run may be empty only if the subscriber joined after the sender's last value
        // left the buffer.
        #expect(run.first == nil || run.end == perSender)
        if bufferSize >= senders * perSender { #expect(run.first == 0) }
      }
    }
    earlyCancellable.cancel()
    joined.withLock { $0.removeAll() }
  }

  /// Eight publishers zipped, each fed by its own thread: exactly one array per round,
  /// the n-th holding every publisher's n-th value, in order, and then one completion.
  @Test func zipOfEightPublishersOneThreadEach() {
    let rounds = 3_000
    let subjects = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
    let arrays = LockedBox<(next: Int, broken: Int)>((0, 0))
    let probe = RunProbe(senders: 1)
    let cancellable = subjects.zip().sink(
      receiveCompletion: { _ in probe.complete() },
      receiveValue: { values in
        arrays.withLock { state in
          if values != Array(repeating: state.next, count: Self.threads) { state.broken += 1 }
          state.next += 1
        }
        probe.receive(Sent(sender: 0, seq: values[0]))
      })
    onThreadsAtOnce(Self.threads) { index in
      for round in 0..<rounds {
        if round % 16 == 0 { yieldToOtherThreads() }
        subjects[index].send(round)
      }
      subjects[index].send(completion: .finished)
    }
    let (count, broken) = arrays.withLock { $0 }
    #expect(count == rounds)
    #expect(broken == 0, "an array mixed values of different rounds")
    probe.expectEverything(rounds, completions: 1)
    cancellable.cancel()
  }

  /// Four threads send values while four others change the value they combine with:
  /// every value goes out once, in its sender's order, with a latest value that was
  /// really sent, and, for each thread's values, the latest never goes back to an older
  /// value of the same changing thread.
  @Test func withLatestFromWithFourSendersAndFourChangers() {
    let perSender = 2_000
    let upstream = PassthroughSubject<Sent, Never>()
    let other = PassthroughSubject<Sent, Never>()
    let probe = RunProbe(senders: Self.threads / 2)
    // Per upstream sender, the newest `seq` of each changer it combined with.
    let latestSeen = LockedBox<(seen: [[Int]], wentBack: Int, phantoms: Int)>(
      (Array(repeating: Array(repeating: -1, count: Self.threads), count: Self.threads / 2), 0, 0))
    let cancellable = upstream.withLatestFrom(other) { ($0, $1) }.sink(
      receiveCompletion: { _ in probe.complete() },
      receiveValue: { value, latest in
        latestSeen.withLock { state in
          if latest.sender < 0 { return }
          guard latest.sender >= Self.threads / 2, latest.seq < perSender else {
            state.phantoms += 1
            return
          }
          if latest.seq < state.seen[value.sender][latest.sender] { state.wentBack += 1 }
          state.seen[value.sender][latest.sender] = latest.seq
        }
        probe.receive(value)
      })
    other.send(Sent(sender: -1, seq: 0))
    onThreadsAtOnce(Self.threads) { thread in
      for seq in 0..<perSender {
        if seq % 16 == 0 { yieldToOtherThreads() }
        if thread < Self.threads / 2 {
          upstream.send(Sent(sender: thread, seq: seq))
        } else {
          other.send(Sent(sender: thread, seq: seq))
        }
      }
    }
    upstream.send(completion: .finished)
    probe.expectEverything(perSender, completions: 1)
    let (_, wentBack, phantoms) = latestSeen.withLock { $0 }
    #expect(wentBack == 0, "a value combined with an older latest than an earlier one did")
    #expect(phantoms == 0)
    cancellable.cancel()
  }

  /// The two relays.
  enum RelayKind: String, CaseIterable, Sendable {
    case passthrough
    case currentValue
  }

  /// Eight publishers, each fed by its own thread and then finished, feed one relay with
  /// three subscribers: each gets every value once in its publisher's order, the finishes
  /// do not end the relay, and the relay still relays afterwards.
  @Test(arguments: RelayKind.allCases)
  func eightFeedsIntoOneRelay(kind: RelayKind) {
    let perSender = 2_000
    let passthrough = PassthroughRelay<Sent>()
    let current = CurrentValueRelay(Sent(sender: -1, seq: 0))
    let relay: AnyPublisher<Sent, Never> =
      kind == .passthrough ? passthrough.eraseToAnyPublisher() : current.eraseToAnyPublisher()
    let feeds = (0..<Self.threads).map { _ in PassthroughSubject<Sent, Never>() }
    let feeding = feeds.map { feed in
      kind == .passthrough ? feed.subscribe(passthrough) : feed.subscribe(current)
    }
    let probes = (0..<3).map { _ in RunProbe(senders: Self.threads + 1) }
    let cancellables = probes.map { probe in
      relay.sink(receiveCompletion: { _ in probe.complete() }, receiveValue: probe.receive)
    }
    onThreadsAtOnce(Self.threads) { sender in
      for seq in 0..<perSender {
        if seq % 16 == 0 { yieldToOtherThreads() }
        feeds[sender].send(Sent(sender: sender, seq: seq))
      }
      feeds[sender].send(completion: .finished)
    }
    let after = Sent(sender: Self.threads, seq: 0)
    if kind == .passthrough { passthrough.accept(after) } else { current.accept(after) }
    for probe in probes {
      probe.expectClean(completions: 0)
      let runs = probe.received
      #expect(runs.prefix(Self.threads).allSatisfy { $0.first == 0 && $0.end == perSender })
      #expect(runs[Self.threads].first == 0, "the relay stopped relaying after its feeds ended")
    }
    for cancellable in cancellables + feeding { cancellable.cancel() }
  }
}
