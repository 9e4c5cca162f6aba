import Dispatch
import Foundation
import KeyedStore
import ReactiveCore
import Testing

@Suite struct PersistenceStressTests {
  /// Eight threads stage into a persisting store while another store on the same file,
  /// and another process, stage and flush: nothing is lost, each key holds its last
  /// value, and the other store's writes reach this one's observers.
  @Test func stagingFromEightThreadsWhileAnotherStoreAndProcessWriteTheFile() throws {
    let folder = TemporaryFolder()
    let child = try childProgram().map {
      try ChildProcess($0, ["writer", folder.file(), "child", "100"])
    }
    #expect(child != nil, "KeyedStoreCrashChild was not built beside the tests")
    let store = try Store(
      persistence: .file(path: folder.file(), changeCheckInterval: .milliseconds(5)))
    let other = try Store(
      persistence: .file(path: folder.file(), changeCheckInterval: .milliseconds(5)))
    let heard = Recorder<Int>()
    store.registerObserver(for: StoreKey<Int>("other")) { heard.append($0.newValue) }
    DispatchQueue.concurrentPerform(iterations: 9) { thread in
      if thread == 8 {
        for step in 1...200 {
          other.stage(step, for: StoreKey<Int>("other"))
          if step % 20 == 0 { try? other.flush() }
        }
        return
      }
      for step in 1...500 {
        store.stage(step, for: StoreKey<Int>("thread.\(thread)"))
        store.update(0, for: StoreKey<Int>("total")) { $0 += 1 }
        if step % 100 == 0 { try? store.flush() }
      }
    }
    if let (_, errors, succeeded) = child?.wait() { #expect(succeeded, "child failed: \(errors)") }
    try other.flush()
    try store.flush()
    try store.refresh()
    #expect(heard.values.last == 200)
    #expect(heard.values == heard.values.sorted())
    let reopened = try openStore(folder.file())
    for thread in 0..<8 {
      #expect(reopened.value(for: StoreKey<Int>("thread.\(thread)")) == 500)
    }
    #expect(reopened.value(for: StoreKey<Int>("total")) == 4_000)
    #expect(reopened.value(for: StoreKey<Int>("other")) == 200)
    #expect(child == nil || reopened.value(for: StoreKey<Int>("child.99")) == 99)
  }
}
