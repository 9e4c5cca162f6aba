import Dispatch
import KeyedStore
import ReactiveCore
import Testing

@Suite struct StoreStressTests {
  @Test func everyCommittedMutationReachesEveryObserverOnceInCommitOrder() {
    let store = Store()
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    store.registerObserver(for: .counter) { first.append($0.newValue) }
    store.registerObserver(for: .counter) { second.append($0.newValue) }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<1_000 {
        store.stage(thread * 1_000 + step, for: .counter, discardingRedundancy: false)
        _ = store.value(for: .counter)
      }
    }
    #expect(first.values.count == 8_000)
    #expect(Set(first.values).count == 8_000)
    #expect(first.values == second.values)
    // Per thread, values were committed in increasing order and must arrive that way.
    for thread in 0..<8 {
      let mine = first.values.filter { $0 / 1_000 == thread }
      #expect(mine == mine.sorted())
    }
    #expect(store.value(for: .counter) == first.values.last)
  }

  @Test func concurrentUpdatesLoseNothing() {
    let store = Store()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 { store.update(0, for: .counter) { $0 += 1 } }
    }
    #expect(store.value(for: .counter) == 4_000)
  }

  @Test func registerAndRetireWhileStaging() {
    let store = Store()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<300 {
        let receipt = store.registerObserver(for: .someInt) { _ in }
        store.stage(thread * 1_000 + step, for: .someInt)
        store.retireObserver(receipt)
      }
    }
    #expect(store.value(for: .someInt) != nil)
  }
}
