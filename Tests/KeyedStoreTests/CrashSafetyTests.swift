import Foundation
import KeyedStore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The keys `KeyedStoreCrashChild crash` stages together, in one batch.
enum CrashKeys {
  static let counter = StoreKey<Int>("crash.counter")
  static let mirror = StoreKey<Int>("crash.mirror")
  static let double = StoreKey<Int>("crash.double")
  static let label = StoreKey<String>("crash.label")
}

@Suite struct CrashSafetyTests {
  /// A child stages batches of related keys and flushes now and then, and is killed with
  /// SIGKILL at a random moment, again and again, each child carrying on from the file.
  /// After every kill the file opens, holds one whole batch, and is never older than
  /// what a flush confirmed. In `crash-journal` mode every write is a journal append
  /// (and compactions come often), so kills land mid-append and mid-compaction too.
  @Test(arguments: ["crash", "crash-journal"])
  func killedWritersLeaveAWholeCommittedBatch(mode: String) throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    var confirmed = 0  // the highest counter a child printed after flush() returned
    var previous = 0
    var progressed = 0
    for kill in 1...50 {
      let child = try ChildProcess(program, [mode, folder.file()])
      // A loaded machine may start a child slower than the kill comes: until one has
      // written, each kill waits longer, so that the run cannot pass without writing.
      let patience = progressed == 0 ? UInt32(kill) * 20_000 : 0
      usleep(UInt32.random(in: 2_000...40_000) + patience)
      child.kill()
      let (output, errors, _) = child.wait()
      #expect(errors.isEmpty, "kill \(kill): \(errors)")
      for line in output.split(separator: "\n") where line.hasPrefix("flushed ") {
        confirmed = max(confirmed, Int(line.dropFirst("flushed ".count)) ?? 0)
      }
      let store = try openStore(folder.file())
      let counter = store.value(for: CrashKeys.counter) ?? 0
      #expect(counter >= confirmed, "kill \(kill): \(counter) is older than flushed \(confirmed)")
      #expect(counter >= previous, "kill \(kill): went back from \(previous) to \(counter)")
      if counter > 0 {
        #expect(store.value(for: CrashKeys.mirror) == counter, "kill \(kill): half a batch")
        #expect(store.value(for: CrashKeys.double) == counter * 2, "kill \(kill): half a batch")
        #expect(
          store.value(for: CrashKeys.label) == "batch \(counter)", "kill \(kill): half a batch")
      }
      if counter > previous { progressed += 1 }
      previous = counter
      try store.close()
    }
    // The children did get to write: the kills landed mid-run, not before every start.
    #expect(progressed > 0)
    #expect(!folder.contents.contains { $0.contains(".tmp-") } || previous > 0)
  }
}

@Suite struct ExitTests {
  static let value = StoreKey<String>("exit.value")
  static let first = StoreKey<Int>("exit.batch.first")
  static let second = StoreKey<Int>("exit.batch.second")

  /// A child stages a value and a batch and never flushes, then calls `exit(0)` or
  /// returns from `main` with the store still open: both are in the file afterwards, and
  /// no temporary file is left.
  @Test(arguments: ["exit", "return"])
  func whatIsStagedBeforeANormalExitIsInTheFile(mode: String) throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    let child = try ChildProcess(program, [mode, folder.file(), "staged before \(mode)"])
    let (_, errors, succeeded) = child.wait()
    #expect(succeeded, "child failed: \(errors)")
    let store = try openStore(folder.file())
    #expect(store.value(for: Self.value) == "staged before \(mode)")
    #expect(store.value(for: Self.first) == 1)
    #expect(store.value(for: Self.second) == 2)
    #expect(!folder.contents.contains { $0.contains(".tmp-") })
  }

  /// Temporary files of a writer that is gone — its process ended mid-write — are
  /// removed when a store next opens the file; one of a live process is left alone.
  @Test func staleTemporaryFilesOfEndedProcessesAreRemovedAtOpen() throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    // A process that has ended: its pid is free (until reused).
    let ended = try ChildProcess(program, ["exit", folder.file("other.json"), "x"])
    let endedPID = ended.pid
    _ = ended.wait()
    write("{", to: folder.file("store.json.tmp-\(endedPID)-12345"))
    write("{", to: folder.file("store.json.tmp-\(getpid())-999"))
    write("{", to: folder.file("store.json.tmp-1-77"))  // init: alive, and not ours
    let store = try openStore(folder.file())
    store.stage(1, for: StoreKey<Int>("a"))
    try store.flush()
    let temporaries = folder.contents.filter { $0.contains(".tmp-") }.sorted()
    #expect(temporaries == ["store.json.tmp-1-77"])
  }
}
