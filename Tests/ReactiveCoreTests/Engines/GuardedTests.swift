import Dispatch
import Testing

@testable import ReactiveCore

/// `Guarded`'s state is reachable only through its lock: `withLock`, or
/// `stateAssumingLocked` while holding the lock, which debug builds check.
@Suite struct GuardedTests {
  final class Counter: Guarded<Int>, @unchecked Sendable {
    init() { super.init(state: 0) }

    /// The hot-path form: take the lock, use the state, let go.
    func incrementAssumingLocked() -> Int {
      lock.lock()
      stateAssumingLocked += 1
      let value = stateAssumingLocked
      lock.unlock()
      return value
    }

    /// A mistake the debug check exists for: the state without the lock.
    func readWithoutTheLock() -> Int { stateAssumingLocked }
  }

  @Test func bothFormsReachTheSameState() {
    let counter = Counter()
    #expect(
      counter.withLock { state -> Int in
        state += 1
        return state
      } == 1)
    #expect(counter.incrementAssumingLocked() == 2)
    #expect(counter.withLock { $0 } == 2)
  }

  @Test func everyIncrementFromManyThreadsCounts() {
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<2_000 {
        if (step + thread).isMultiple(of: 2) {
          _ = counter.incrementAssumingLocked()
        } else {
          counter.withLock { $0 += 1 }
        }
      }
    }
    #expect(counter.withLock { $0 } == 16_000)
  }

  #if DEBUG
    @Test func debugBuildsStopAnAccessWithoutTheLock() async {
      await #expect(processExitsWith: .failure) {
        _ = Counter().readWithoutTheLock()
      }
    }

    @Test func debugBuildsStopAnAccessWhileAnotherThreadHoldsTheLock() async {
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        counter.lock.lock()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          _ = counter.readWithoutTheLock()
          done.signal()
        }
        done.wait()
      }
    }

    @Test func debugBuildsStopAnUnlockByAThreadThatDoesNotHoldTheLock() async {
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        counter.lock.unlock()
      }
    }
  #endif
}
