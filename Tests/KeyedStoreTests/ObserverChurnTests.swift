import KeyedStore
import ModelTesting
import Testing

/// Observers registered and retired in any order, many at a time: each stage reaches
/// exactly the registered observers, in registration order, and a retired observer's
/// closure (and what it holds) is released when it is retired, not later.
@Suite struct ObserverChurnTests {
  final class Log: @unchecked Sendable {
    var heard: [Int] = []
  }

  @Test(arguments: [1, 2, 3])
  func stagesReachExactlyTheRegisteredObserversInOrder(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    let store = Store()
    let key = StoreKey<Int>("churn")
    let log = Log()
    var registered: [(id: Int, receipt: ObserverReceipt)] = []
    var next = 0
    for step in 0..<3_000 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        let id = next
        next += 1
        registered.append((id, store.registerObserver(for: key) { _ in log.heard.append(id) }))
      case 4..<7 where !registered.isEmpty:
        let index =
          Bool.random(using: &random)
          ? Int.random(in: 0..<registered.count, using: &random) : registered.count - 1
        store.retireObserver(registered.remove(at: index).receipt)
      default:
        log.heard.removeAll()
        store.stage(step, for: key)
        #expect(log.heard == registered.map(\.id), "step \(step)")
      }
    }
  }

  @Test func aRetiredObserverIsReleasedAtOnceAmongMany() {
    final class Held {}
    let store = Store()
    let key = StoreKey<Int>("release")
    let others = (0..<50).map { _ in store.registerObserver(for: key) { _ in } }
    weak var released: Held?
    do {
      let held = Held()
      released = held
      let receipt = store.registerObserver(for: key) { _ in _ = held }
      store.retireObserver(receipt)
      store.retireObserver(receipt)  // twice: nothing more happens
    }
    #expect(released == nil)
    #expect(others.count == 50)
  }
}
