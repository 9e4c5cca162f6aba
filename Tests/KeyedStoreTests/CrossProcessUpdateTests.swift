import Foundation
import KeyedStore
import ReactiveCore
import Testing

@Suite struct CrossProcessUpdateTests {
  /// Three processes each add 1 to one key 50 times with `update(_:for:_:)`, at once,
  /// while this process adds 50 more: not one increment is lost. In `increment-journal`
  /// mode every store keeps a journal, so each update is an append.
  @Test(arguments: ["increment", "increment-journal"])
  func incrementsFromSeveralProcessesAllLand(mode: String) throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    let store =
      mode == "increment" ? try openStore(folder.file()) : try openJournaling(folder.file())
    let children = try (0..<3).map { _ in
      try ChildProcess(program, [mode, folder.file(), "50"])
    }
    for _ in 0..<50 { store.update(0, for: .counter) { $0 += 1 } }
    for child in children {
      let (output, errors, succeeded) = child.wait()
      #expect(succeeded, "child failed: \(errors)")
      #expect(output.contains("done"))
    }
    try store.flush()
    #expect(try openStore(folder.file()).value(for: .counter) == 200)
    try store.refresh()
    #expect(store.value(for: .counter) == 200)
  }

  /// Two stores in one process, neither told of the other's write: an update starts from
  /// the value the other store wrote, not from its own stale one.
  @Test func anUpdateStartsFromWhatTheFileHoldsNow() throws {
    let folder = TemporaryFolder()
    let first = try openStore(folder.file())
    let second = try openStore(folder.file())
    first.update(0, for: .counter) { $0 += 1 }
    second.update(0, for: .counter) { $0 += 1 }
    first.update(0, for: .counter) { $0 += 1 }
    #expect(first.value(for: .counter) == 3)
    #expect(try openStore(folder.file()).value(for: .counter) == 3)
  }

  /// A batch on a persisted store commits against the file's current values, so its
  /// observers hear another store's write as the old value, and it is in the file when
  /// `stage` returns.
  @Test func aBatchCommitsAgainstTheFileAndIsWrittenWhenItReturns() throws {
    let folder = TemporaryFolder()
    let writer = try openStore(folder.file())
    let batcher = try openStore(folder.file())
    let heard = Recorder<Mutation<Int>>()
    batcher.registerObserver(for: .someInt) { heard.append($0) }
    writer.stage(5, for: .someInt)
    try writer.flush()
    try batcher.stage([AnyStoreKey(.someInt): 6, AnyStoreKey(.someString): "six"])
    #expect(heard.values.map(\.newValue) == [5, 6])
    #expect(heard.values.last?.oldValue == 5)
    let reopened = try openStore(folder.file())
    #expect(reopened.value(for: .someInt) == 6)
    #expect(reopened.value(for: .someString) == "six")
  }
}
