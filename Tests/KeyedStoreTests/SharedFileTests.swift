import Foundation
import KeyedStore
import ReactiveCore
import Testing

@Suite struct SharedFileTests {
  @Test func twoStoresInOneProcessKeepEachOthersValues() throws {
    let folder = TemporaryFolder()
    let first = try openStore(folder.file())
    let second = try openStore(folder.file())
    first.stage(1, for: StoreKey<Int>("first"))
    second.stage(2, for: StoreKey<Int>("second"))
    try first.flush()
    try second.flush()
    first.stage(3, for: StoreKey<Int>("first"))
    try first.flush()
    let third = try openStore(folder.file())
    #expect(third.value(for: StoreKey<Int>("first")) == 3)
    #expect(third.value(for: StoreKey<Int>("second")) == 2)
  }

  @Test func theLastWriterWinsPerKeyAndOthersHearItAsAMutation() throws {
    let folder = TemporaryFolder()
    let shared = StoreKey<Int>("shared")
    let first = try openStore(folder.file())
    let second = try openStore(folder.file())
    let heard = Recorder<Mutation<Int>>()
    first.registerObserver(for: shared) { heard.append($0) }
    first.stage(1, for: shared)
    try first.flush()
    second.stage(2, for: shared)
    try second.flush()
    #expect(try openStore(folder.file()).value(for: shared) == 2)
    try first.refresh()
    #expect(first.value(for: shared) == 2)
    #expect(heard.values.map(\.newValue) == [1, 2])
    #expect(heard.values.last?.oldValue == 1)
    // Nothing changed since: refreshing again delivers nothing.
    try first.refresh()
    #expect(heard.values.count == 2)
  }

  @Test func aKeyStagedHereAgainWinsOverAnotherStoresOlderWrite() throws {
    let folder = TemporaryFolder()
    let shared = StoreKey<Int>("shared")
    let first = try openStore(folder.file())
    let second = try openStore(folder.file())
    second.stage(2, for: shared)
    try second.flush()
    first.stage(3, for: shared)  // staged after the other store's write, written later
    try first.flush()
    #expect(first.value(for: shared) == 3)
    #expect(try openStore(folder.file()).value(for: shared) == 3)
  }

  @Test func anObserverOfAnotherStoresChangeMayStageAndFlush() throws {
    let folder = TemporaryFolder()
    let first = try openStore(folder.file())
    let second = try openStore(folder.file())
    let receipt = first.registerObserver(for: StoreKey<Int>("x")) { mutation in
      first.stage(mutation.newValue * 10, for: StoreKey<Int>("y"))
      try? first.flush()  // re-entrant: runs inside the delivery of another store's change
    }
    // The observer captures the store that keeps it: retiring it breaks that cycle.
    defer { first.retireObserver(receipt) }
    second.stage(4, for: StoreKey<Int>("x"))
    try second.flush()
    try first.refresh()
    #expect(first.value(for: StoreKey<Int>("y")) == 40)
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("y")) == 40)
  }

  @Test func changesAreNoticedWithoutAsking() throws {
    let folder = TemporaryFolder()
    let watching = try Store(
      persistence: .file(path: folder.file(), changeCheckInterval: .milliseconds(10)))
    let heard = Recorder<Int>()
    watching.registerObserver(for: StoreKey<Int>("news")) { heard.append($0.newValue) }
    let writer = try openStore(folder.file())
    writer.stage(7, for: StoreKey<Int>("news"))
    try writer.flush()
    #expect(eventually { heard.values == [7] })
    #expect(watching.value(for: StoreKey<Int>("news")) == 7)
  }

  @Test func aKeyNotBoundYetReadsTheNewValue() throws {
    let folder = TemporaryFolder()
    let reader = try openStore(folder.file())
    let writer = try openStore(folder.file())
    writer.stage("fresh", for: StoreKey<String>("late"))
    try writer.flush()
    try reader.refresh()
    #expect(reader.value(for: StoreKey<String>("late")) == "fresh")
  }

  @Test func twoProcessesKeepEachOthersValues() throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    let heard = Recorder<Int>()
    store.registerObserver(for: StoreKey<Int>("child.99")) { heard.append($0.newValue) }
    let child = try ChildProcess(program, ["writer", folder.file(), "child", "100"])
    for index in 0..<100 {
      store.stage(index, for: StoreKey<Int>("parent.\(index)"))
      if index % 10 == 0 { try store.flush() }
    }
    let (output, errors, succeeded) = child.wait()
    #expect(succeeded, "child failed: \(errors)")
    #expect(output.contains("done"))
    try store.flush()
    try store.refresh()
    #expect(heard.values == [99])
    let reopened = try openStore(folder.file())
    for index in 0..<100 {
      #expect(reopened.value(for: StoreKey<Int>("parent.\(index)")) == index)
      #expect(reopened.value(for: StoreKey<Int>("child.\(index)")) == index)
    }
  }
}
