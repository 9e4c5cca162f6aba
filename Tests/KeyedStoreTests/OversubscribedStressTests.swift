// Eight threads at once on a two-core machine against one in-memory store. Correctness
// only: every commit observed once in commit order, nothing after retirement, no lost
// update, atomic batches; no timing.

import KeyedStore
import ModelTesting
import ReactiveCore
import Synchronization
import Testing

/// Proves, with eight threads released together (more threads than cores), the store's
/// guarantees: every committed mutation reaches every observer registered at commit time
/// exactly once, in commit order per key, and observers never overlap; `update` loses no
/// increment and a late `publisher(for:initial:)` misses nothing; a retired observer gets
/// nothing committed after `retireObserver` returns and is released; a batch is atomic.
@Suite struct OversubscribedStressTests {
  static let threads = 8

  /// A value staged by one thread: which thread, its place among that thread's stages,
  /// and what the thread knew when it staged it.
  struct Stamp: Sendable, Equatable {
    var sender: Int
    var seq: Int
    var mark = 0
  }

  /// Records, per key, the new values an observer saw, and counts the mutations whose
  /// old value was not the previous new one.
  final class ChainRecorder: Sendable {
    private let box: LockedBox<(values: [[Int]], broken: Int)>

    init(keys: Int) { box = LockedBox((Array(repeating: [], count: keys), 0)) }

    func record(_ key: Int, old: Int?, new: Int) {
      box.withLock { state in
        if old != state.values[key].last { state.broken += 1 }
        state.values[key].append(new)
      }
    }

    var values: [[Int]] { box.withLock { $0.values } }
    var broken: Int { box.withLock { $0.broken } }
  }

  /// Each thread stages its own key; per-key observers, one observer of all eight keys and
  /// a publisher per key each see every value of the key once, in order, each mutation's
  /// old value the previous new one; no two observers ever run at once.
  @Test func eightThreadsStagingTheirOwnKeysAreObservedOnceInOrder() {
    let perThread = 1_000
    let store = Store()
    let keys = (0..<Self.threads).map { StoreKey<Int>("oversubscribed.own.\($0)") }
    let probe = OverlapProbe()
    let perKey = ChainRecorder(keys: Self.threads)
    let allKeys = ChainRecorder(keys: Self.threads)
    let published = ChainRecorder(keys: Self.threads)
    let receipts = keys.enumerated().map { index, key in
      store.registerObserver(for: key) { mutation in
        probe.during { perKey.record(index, old: mutation.oldValue, new: mutation.newValue) }
      }
    }
    let all = store.registerObserver(for: keys.map(AnyStoreKey.init)) { mutation in
      let index = keys.firstIndex { $0.name == mutation.key.name }!
      probe.during {
        allKeys.record(index, old: mutation.oldValue as? Int, new: mutation.newValue as! Int)
      }
    }
    let cancellables = keys.enumerated().map { index, key in
      store.publisher(for: key).sink { mutation in
        probe.during {
          published.record(index, old: mutation.oldValue, new: mutation.newValue)
        }
      }
    }
    let notCommitted = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { thread in
      for value in 0..<perThread {
        if value % 16 == 0 { yieldToOtherThreads() }
        if store.stage(value, for: keys[thread]) != .committed {
          notCommitted.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(notCommitted.load(ordering: .relaxed) == 0)
    let everything = Array(0..<perThread)
    for recorder in [perKey, allKeys, published] {
      #expect(recorder.values.allSatisfy { $0 == everything })
      #expect(recorder.broken == 0, "a mutation's old value was not the previous new one")
    }
    #expect(probe.overlaps.load(ordering: .relaxed) == 0, "two observers ran at once")
    let values = store.values(for: keys.map(AnyStoreKey.init))
    #expect(keys.allSatisfy { values[AnyStoreKey($0)] as? Int == perThread - 1 })
    for receipt in receipts { store.retireObserver(receipt) }
    all.retireAll()
    for cancellable in cancellables { cancellable.cancel() }
  }

  /// Eight threads increment one key with `update`, and each subscribes a
  /// `publisher(for:initial: true)` halfway through: no increment is lost, an observer
  /// from the start sees 1, 2, 3, … in order, and each late subscriber sees the value at
  /// its start and then every later one, with no gap and no repeat.
  @Test func updatesFromEightThreadsAndLateSubscribersMissNothing() {
    let perThread = 500
    let total = Self.threads * perThread
    let store = Store()
    let key = StoreKey<Int>("oversubscribed.counter")
    let fromStart = LockedBox<(values: [Int], brokenChains: Int)>(([], 0))
    let receipt = store.registerObserver(for: key) { mutation in
      fromStart.withLock { state in
        if mutation.oldValue != state.values.last { state.brokenChains += 1 }
        state.values.append(mutation.newValue)
      }
    }
    let late = LockedBox<[(values: LockedBox<[Int]>, cancellable: AnyCancellable)]>([])
    onThreadsAtOnce(Self.threads) { _ in
      for step in 0..<perThread {
        if step % 16 == 0 { yieldToOtherThreads() }
        store.update(0, for: key) { $0 += 1 }
        guard step == perThread / 2 else { continue }
        let values = LockedBox<[Int]>([])
        let cancellable = store.publisher(for: key, initial: true).sink { mutation in
          values.withLock { $0.append(mutation.newValue) }
        }
        late.withLock { $0.append((values, cancellable)) }
      }
    }
    #expect(store.value(for: key) == total)
    let (values, brokenChains) = fromStart.withLock { $0 }
    #expect(values == Array(1...total))
    #expect(brokenChains == 0)
    for (values, cancellable) in late.withLock({ $0 }) {
      let seen = values.withLock { $0 }
      #expect(seen == Array((seen.first ?? 0)...total), "a late subscriber missed or repeated")
      cancellable.cancel()
    }
    store.retireObserver(receipt)
  }

  /// A weak reference to what a retired observer held.
  struct WeakToken: @unchecked Sendable {
    weak var object: TokenObject?
  }

  /// One thread registers and retires observers, one after another, while seven stage:
  /// no value staged after `retireObserver` returned reaches the retired observer, each
  /// retired observer is released, and an observer that stays sees every commit once, in
  /// each thread's order.
  @Test func observersRetiredWhileSevenThreadsStage() {
    let store = Store()
    let key = StoreKey<Stamp>("oversubscribed.churn")
    let generations = 1_000
    let retiredThrough = Atomic<Int>(0)
    let churnDone = Atomic<Bool>(false)
    let afterRetire = Atomic<Int>(0)
    let tokens = LockedBox<[WeakToken]>([])
    // The steady observer's next expected `seq` per thread, and the values out of order.
    let steady = LockedBox<(next: [Int], broken: Int)>((Array(repeating: 0, count: 8), 0))
    let staged = LockedBox(Array(repeating: 0, count: Self.threads))
    let receipt = store.registerObserver(for: key) { mutation in
      let stamp = mutation.newValue
      steady.withLock { state in
        if stamp.seq == state.next[stamp.sender] {
          state.next[stamp.sender] += 1
        } else {
          state.broken += 1
        }
      }
    }
    onThreadsAtOnce(Self.threads) { thread in
      guard thread == 0 else {
        var seq = 0
        // Bounded, so that a slow churn under the sanitizer does not grow the run.
        while !churnDone.load(ordering: .acquiring) && seq < 20_000 {
          if seq % 16 == 0 { yieldToOtherThreads() }
          let mark = retiredThrough.load(ordering: .acquiring)
          _ = store.stage(Stamp(sender: thread, seq: seq, mark: mark), for: key)
          seq += 1
        }
        staged.withLock { $0[thread] = seq }
        return
      }
      for generation in 1...generations {
        let token = TokenObject()
        tokens.withLock { $0.append(WeakToken(object: token)) }
        let receipt = store.registerObserver(for: key) { [token] mutation in
          withExtendedLifetime(token) {}
          if mutation.newValue.mark >= generation { afterRetire.add(1, ordering: .relaxed) }
        }
        _ = consume token
        store.retireObserver(receipt)
        retiredThrough.store(generation, ordering: .releasing)
      }
      churnDone.store(true, ordering: .releasing)
    }
    #expect(afterRetire.load(ordering: .relaxed) == 0, "a retired observer got a later commit")
    #expect(tokens.withLock { $0.allSatisfy { $0.object == nil } }, "a retired observer was kept")
    let (next, broken) = steady.withLock { $0 }
    #expect(broken == 0)
    #expect(next == staged.withLock { $0 })
    store.retireObserver(receipt)
  }

  /// Eight threads stage batches that give two keys the same value, and read both keys
  /// in one snapshot: every snapshot shows them equal, and the two keys' observers see
  /// the same values in the same order (one commit order for the whole batch).
  @Test func batchesFromEightThreadsAreAtomic() throws {
    let perThread = 500
    let store = Store()
    let left = StoreKey<Int>("oversubscribed.left")
    let right = StoreKey<Int>("oversubscribed.right")
    let pair = [AnyStoreKey(left), AnyStoreKey(right)]
    let observed = LockedBox<(left: [Int], right: [Int])>(([], []))
    let receipts = [
      store.registerObserver(for: left) { m in observed.withLock { $0.left.append(m.newValue) } },
      store.registerObserver(for: right) { m in observed.withLock { $0.right.append(m.newValue) } },
    ]
    let torn = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    onThreadsAtOnce(Self.threads) { thread in
      for step in 0..<perThread {
        if step % 16 == 0 { yieldToOtherThreads() }
        let value = thread * perThread + step
        do {
          try store.stage([pair[0]: value, pair[1]: value])
        } catch {
          failed.add(1, ordering: .relaxed)
        }
        let snapshot = store.values(for: pair)
        if snapshot[pair[0]] as? Int != snapshot[pair[1]] as? Int {
          torn.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(failed.load(ordering: .relaxed) == 0)
    #expect(torn.load(ordering: .relaxed) == 0, "a snapshot saw half a batch")
    let (leftValues, rightValues) = observed.withLock { $0 }
    #expect(leftValues.count == Self.threads * perThread)
    #expect(Set(leftValues).count == leftValues.count)
    #expect(leftValues == rightValues, "the two keys' commits came in different orders")
    #expect(store.value(for: left) == leftValues.last)
    #expect(store.value(for: right) == leftValues.last)
    for receipt in receipts { store.retireObserver(receipt) }
  }
}
