// Cross-cutting: every timing operator raced on real queues, sharing one harness.

import Dispatch
import Foundation
import ReactiveCore
import Synchronization
import Testing

/// Time operators under concurrent senders, schedulers and cancellation; CI runs these
/// under TSan.
@Suite struct TimingStressTests {
  static let threads = 6
  static let perThread = 2_000

  /// Counts deliveries and notices any two that overlap.
  final class OverlapProbe: Sendable {
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let count = Atomic<Int>(0)
    let finished = DispatchSemaphore(value: 0)

    let primed = Atomic<Int>(0)

    /// Records one delivery; negative values are priming probes, counted apart.
    func visit(_ value: Int) {
      if value < 0 {
        primed.add(1, ordering: .sequentiallyConsistent)
        return
      }
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      count.add(1, ordering: .relaxed)
      inside.subtract(1, ordering: .sequentiallyConsistent)
    }
  }

  /// Sends priming values until one gets through, so the demand has reached the
  /// subject (`receive(on:)` and `subscribe(on:)` hand it over asynchronously).
  ///
  /// Bounded and sleeping: a spin that schedules work on every turn can starve the very
  /// queue it waits for on a two-core machine, and grows memory without limit.
  private func prime(_ subject: PassthroughSubject<Int, Never>, _ probe: OverlapProbe) {
    for _ in 0..<5_000 where probe.primed.load(ordering: .sequentiallyConsistent) == 0 {
      subject.send(-1)
      usleep(1_000)
    }
    #expect(probe.primed.load(ordering: .sequentiallyConsistent) > 0, "the demand never arrived")
  }

  /// Subscribes, primes, then sends from several threads at once.
  private func hammer<P: Publisher>(
    _ make: (PassthroughSubject<Int, Never>) -> P
  ) -> OverlapProbe where P.Output == Int, P.Failure == Never {
    let subject = PassthroughSubject<Int, Never>()
    let probe = OverlapProbe()
    let cancellable = make(subject).sink(
      receiveCompletion: { _ in probe.finished.signal() }, receiveValue: { probe.visit($0) })
    prime(subject, probe)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
      for value in 0..<Self.perThread { subject.send(value) }
    }
    subject.send(completion: .finished)
    #expect(probe.finished.wait(timeout: .now() + 30) == .success)
    cancellable.cancel()
    return probe
  }

  @Test func receiveOnAQueueNeverOverlaps() {
    let queue = DispatchQueue(label: "ripple.stress.receive")
    let probe = hammer { $0.receive(on: queue) }
    #expect(probe.overlaps.load(ordering: .relaxed) == 0)
    #expect(probe.count.load(ordering: .relaxed) <= Self.threads * Self.perThread)
  }

  @Test func receiveOnASerialQueueDeliversEverything() {
    let queue = DispatchQueue(label: "ripple.stress.serial")
    let probe = hammer { $0.receive(on: queue) }
    #expect(probe.overlaps.load(ordering: .relaxed) == 0)
    #expect(probe.count.load(ordering: .relaxed) == Self.threads * Self.perThread)
  }

  @Test func delayOnAQueueNeverOverlaps() {
    let queue = DispatchQueue(label: "ripple.stress.delay")
    let probe = hammer { $0.delay(for: .microseconds(1), scheduler: queue) }
    #expect(probe.overlaps.load(ordering: .relaxed) == 0)
  }

  @Test func subscribeOnWithConcurrentSenders() {
    let queue = DispatchQueue(label: "ripple.stress.subscribe")
    let probe = hammer { $0.subscribe(on: queue) }
    #expect(probe.count.load(ordering: .relaxed) == Self.threads * Self.perThread)
    #expect(probe.overlaps.load(ordering: .relaxed) == 0)
  }

  /// Senders, a thread advancing virtual time and a canceller, all at once.
  private func race<P: Publisher>(
    _ make: (PassthroughSubject<Int, Never>, TestScheduler) -> P
  ) where P.Failure == Never {
    for round in 0..<20 {
      let scheduler = TestScheduler()
      let subject = PassthroughSubject<Int, Never>()
      let probe = OverlapProbe()
      let cancellable = make(subject, scheduler).sink { _ in probe.visit(0) }
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        switch index {
        case 0:
          for _ in 0..<200 { scheduler.advance(by: .milliseconds(1)) }
        case 1 where round % 2 == 0:
          for value in 0..<100 { subject.send(value) }
          cancellable.cancel()
        default:
          for value in 0..<200 { subject.send(value) }
        }
      }
      subject.send(completion: .finished)
      scheduler.run()
      #expect(probe.overlaps.load(ordering: .relaxed) == 0)
      cancellable.cancel()
    }
  }

  @Test func debounceRaces() {
    race { $0.debounce(for: .milliseconds(2), scheduler: $1) }
  }

  @Test func throttleRaces() {
    race { $0.throttle(for: .milliseconds(2), scheduler: $1, latest: true) }
  }

  @Test func timeoutRaces() {
    race { $0.timeout(.milliseconds(3), scheduler: $1) }
  }

  @Test func delayRaces() {
    race { $0.delay(for: .milliseconds(2), scheduler: $1) }
  }

  @Test func collectRaces() {
    race { $0.collect(.byTimeOrCount($1, .milliseconds(2), 5)) }
  }

  @Test func collectByTimeOrCountLosesNothing() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let total = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
    let cancellable = subject.collect(.byTimeOrCount(scheduler, .milliseconds(1), 7))
      .sink(
        receiveCompletion: { _ in done.store(true, ordering: .sequentiallyConsistent) },
        receiveValue: { total.add($0.count, ordering: .relaxed) })
    DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { index in
      if index == 0 {
        for _ in 0..<500 { scheduler.advance(by: .milliseconds(1)) }
      } else {
        for value in 0..<Self.perThread { subject.send(value) }
      }
    }
    subject.send(completion: .finished)
    // Full groups and the completion are delivered on the scheduler, as Combine does.
    scheduler.advance()
    let finished = done.load(ordering: .sequentiallyConsistent)
    #expect(finished)
    #expect(total.load(ordering: .relaxed) == Self.threads * Self.perThread)
    cancellable.cancel()
  }
}
