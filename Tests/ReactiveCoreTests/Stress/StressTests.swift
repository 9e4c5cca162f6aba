// Cross-cutting: subjects, sinks and their cancellation raced from many threads at once.

import Dispatch
import ReactiveCore
import Synchronization
import Testing

/// Hammers subjects and cancellation from several threads; CI runs these under TSan.
@Suite struct StressTests {
  static let threads = 8
  static let perThread = 100_000

  @Test func concurrentSendsAreAllDeliveredAndNeverOverlap() {
    let subject = PassthroughSubject<Int, Never>()
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let count = Atomic<Int>(0)
    let cancellable = subject.sink { _ in
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      count.add(1, ordering: .relaxed)
      inside.subtract(1, ordering: .sequentiallyConsistent)
    }
    DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
      for value in 0..<Self.perThread { subject.send(value) }
    }
    #expect(count.load(ordering: .relaxed) == Self.threads * Self.perThread)
    #expect(overlaps.load(ordering: .relaxed) == 0)
    cancellable.cancel()
  }

  @Test func concurrentSubscribeSendAndCancel() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let received = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { index in
      for value in 0..<(Self.perThread / 10) {
        let cancellable = subject.map { $0 + 1 }.filter { $0 > 0 }.sink { _ in
          received.add(1, ordering: .relaxed)
        }
        subject.send(value)
        if index % 2 == 0 { cancellable.cancel() }
        cancellable.cancel()
      }
    }
    #expect(received.load(ordering: .relaxed) >= Self.threads * Self.perThread / 10)
  }

  @Test func cancelRacingWithSend() {
    for _ in 0..<200 {
      let subject = PassthroughSubject<Int, Never>()
      let cancellable = subject.sink { _ in }
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        if index == 0 {
          cancellable.cancel()
        } else {
          for value in 0..<100 { subject.send(value) }
        }
      }
      subject.send(completion: .finished)
    }
  }

  /// A cancel on one thread releases the value closure while another thread may be
  /// calling it: the closure must stay alive until that delivery returns.
  @Test func cancelRacingWithDeliveryKeepsTheClosureAliveWhileItRuns() {
    for _ in 0..<500 {
      let subject = PassthroughSubject<Int, Never>()
      let token = Token()
      weak let weakToken = token
      let calls = Atomic<Int>(0)
      let cancellable = subject.sink { [token] _ in
        withExtendedLifetime(token) { _ = calls.add(1, ordering: .relaxed) }
      }
      _ = consume token
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<50 { subject.send(value) }
        } else {
          cancellable.cancel()
        }
      }
      #expect(weakToken == nil)
    }
  }

  @Test func completionRacingWithSendDeliversAtMostOneCompletion() {
    for _ in 0..<200 {
      let subject = PassthroughSubject<Int, Never>()
      let completions = Atomic<Int>(0)
      let afterCompletion = Atomic<Int>(0)
      let done = Atomic<Bool>(false)
      let cancellable = subject.sink(
        receiveCompletion: { _ in
          completions.add(1, ordering: .relaxed)
          done.store(true, ordering: .sequentiallyConsistent)
        },
        receiveValue: { _ in
          if done.load(ordering: .sequentiallyConsistent) {
            afterCompletion.add(1, ordering: .relaxed)
          }
        })
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        if index == 0 {
          subject.send(completion: .finished)
        } else {
          for value in 0..<100 { subject.send(value) }
        }
      }
      #expect(completions.load(ordering: .relaxed) == 1)
      #expect(afterCompletion.load(ordering: .relaxed) == 0)
      cancellable.cancel()
    }
  }
}
