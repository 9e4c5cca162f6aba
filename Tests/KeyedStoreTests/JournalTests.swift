import Foundation
@_spi(Testing) import KeyedStore
import ReactiveCore
import Testing

/// Opens a file-backed store that keeps a journal from its first write (as a store file of
/// 64 KiB or more does) and compacts at `compactionRatio` × the file's size; it looks for
/// other stores' changes only when asked, unless given an interval.
func openJournaling(
  _ path: String, compactionRatio: Double = 1_000, migrations: [StoreMigration] = [],
  ifCorrupt: CorruptFileHandling = .throwError, changeCheckInterval: Duration? = nil
) throws -> Store {
  try Store(
    persistence: .file(
      path: path, migrations: migrations, ifCorrupt: ifCorrupt,
      changeCheckInterval: changeCheckInterval
    )
    .journaling(fromFileSize: 0, compactionRatio: compactionRatio))
}

/// The lines of a journal, without their newlines; a last line cut short is included.
func journalLines(_ path: String) -> [String] {
  text(at: path + ".journal").split(separator: "\n", omittingEmptySubsequences: false)
    .map(String.init).filter { !$0.isEmpty }
}

/// Appends `text` to the file at `path`.
func append(_ text: String, to path: String) {
  guard let handle = FileHandle(forWritingAtPath: path) else { return }
  handle.seekToEndOfFile()
  handle.write(Data(text.utf8))
  handle.closeFile()
}

@Suite struct JournalTests {
  /// The values every test reads back: `key.0 ..< key.count` hold their index.
  static func keys(_ count: Int) -> [StoreKey<Int>] {
    (0..<count).map { StoreKey<Int>("key.\($0)") }
  }

  /// Once the file has a generation, a flush appends only the changed keys, as one line,
  /// and leaves the JSON file as it was; a store opened later reads both.
  @Test func aChangeIsAppendedToTheJournalAndReadBack() throws {
    let folder = TemporaryFolder()
    let store = try openJournaling(folder.file())
    let keys = Self.keys(100)
    try store.batch { batch in
      for (index, key) in keys.enumerated() { batch.stage(index, for: key) }
    }
    try store.flush()
    let base = text(at: folder.file())
    #expect(base.contains(#""generation" : ""#))
    #expect(base.contains(#""key.99" : 99"#))
    store.stage(1_000, for: keys[3])
    try store.flush()
    store.stage(2_000, for: keys[3])
    try store.flush()
    #expect(text(at: folder.file()) == base)
    let lines = journalLines(folder.file())
    #expect(lines.count == 3)
    #expect(lines.first?.contains(#""format":"ripple.keyedstore.journal""#) == true)
    #expect(lines.dropFirst().first == #"{"values":{"key.3":1000}}"#)
    let reopened = try openStore(folder.file())
    #expect(reopened.value(for: keys[3]) == 2_000)
    #expect(reopened.value(for: keys[99]) == 99)
  }

  /// A write killed mid-append leaves a last line without its newline: it is ignored,
  /// the store opens with every whole line, and the next append replaces the cut line.
  @Test func aLastLineCutShortIsIgnoredAndOverwritten() throws {
    let folder = TemporaryFolder()
    let key = StoreKey<Int>("value")
    do {
      let store = try openJournaling(folder.file())
      store.stage(1, for: key)
      try store.flush()
      store.stage(2, for: key)
      try store.flush()
    }
    append(#"{"values":{"value":3"#, to: folder.file() + ".journal")
    let store = try openJournaling(folder.file())
    #expect(store.value(for: key) == 2)
    store.stage(4, for: key)
    try store.flush()
    let lines = journalLines(folder.file())
    #expect(lines.last == #"{"values":{"value":4}}"#)
    #expect(!lines.contains { $0.contains(":3") })
    #expect(try openStore(folder.file()).value(for: key) == 4)
  }

  /// A whole line that is not a record is corruption: opening throws naming the journal
  /// and leaves both files as they are, or, with `.moveAside`, moves the journal aside
  /// and opens with the JSON file's values.
  @Test func aCorruptLineThrowsNamingTheJournal() throws {
    let folder = TemporaryFolder()
    let key = StoreKey<Int>("value")
    do {
      let store = try openJournaling(folder.file())
      store.stage(1, for: key)
      try store.flush()
      store.stage(2, for: key)
      try store.flush()
    }
    append("garbage\n", to: folder.file() + ".journal")
    let base = text(at: folder.file())
    let journal = text(at: folder.file() + ".journal")
    #expect(throws: StoreError.self) { try openStore(folder.file()) }
    do {
      _ = try openStore(folder.file())
    } catch let error as StoreError {
      guard case .corruptFile(let path, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == folder.file() + ".journal")
      #expect(reason.contains("line 3"))
    }
    #expect(text(at: folder.file()) == base)
    #expect(text(at: folder.file() + ".journal") == journal)
    let store = try openStore(folder.file(), ifCorrupt: .moveAside)
    #expect(store.value(for: key) == 1)
    #expect(folder.contents.contains { $0.hasPrefix("store.json.journal.corrupt-") })
  }

  /// A journal of another generation — left by a writer killed between rewriting the
  /// file and removing the journal — is already in the file: it is ignored.
  @Test func aJournalOfAnotherGenerationIsIgnored() throws {
    let folder = TemporaryFolder()
    let key = StoreKey<Int>("value")
    do {
      let store = try openJournaling(folder.file())
      store.stage(1, for: key)
      try store.flush()
    }
    write(
      #"{"format":"ripple.keyedstore.journal","generation":"0000000000000000"}"# + "\n"
        + #"{"values":{"value":9}}"# + "\n", to: folder.file() + ".journal")
    let store = try openJournaling(folder.file())
    #expect(store.value(for: key) == 1)
    store.stage(2, for: key)
    try store.flush()
    #expect(!journalLines(folder.file()).contains { $0.contains("0000000000000000") })
    #expect(try openStore(folder.file()).value(for: key) == 2)
  }

  /// Once the journal outgrows its share of the file, the file is rewritten in the
  /// background with every value in it, stays readable JSON, and the journal is gone.
  @Test func compactionKeepsEveryValueInReadableJSON() throws {
    let folder = TemporaryFolder()
    let store = try openJournaling(folder.file(), compactionRatio: 0.5)
    let keys = Self.keys(20)
    try store.batch { batch in
      for (index, key) in keys.enumerated() { batch.stage(index, for: key) }
    }
    try store.flush()
    for round in 1..<20 {
      store.stage(round * 100, for: keys[round])
      try store.flush()
    }
    // The journal reaches half the file within a few appends: the first compaction has
    // the first rounds' values in the JSON file, with no journal needed to read them.
    #expect(eventually { text(at: folder.file()).contains(#""key.1" : 100"#) })
    #expect(store.persistedWriteCount > 20)
    let contents = text(at: folder.file())
    #expect(contents.contains(#""format" : "ripple.keyedstore""#))
    #expect((try? JSONSerialization.jsonObject(with: Data(contents.utf8))) != nil)
    let reopened = try openStore(folder.file())
    for (index, key) in keys.enumerated() {
      #expect(reopened.value(for: key) == store.value(for: key), "key \(index)")
    }
  }

  /// Another store on the file hears appended changes as mutations, reading only what
  /// was appended; values it never changed keep what the file holds.
  @Test func anotherStoreHearsAppendedChanges() throws {
    let folder = TemporaryFolder()
    let key = StoreKey<Int>("shared")
    let writer = try openJournaling(folder.file())
    writer.stage(1, for: key)
    writer.stage(1, for: StoreKey<Int>("other"))
    try writer.flush()
    let reader = try openJournaling(folder.file())
    let heard = Recorder<Mutation<Int>>()
    reader.registerObserver(for: key) { heard.append($0) }
    for value in 2...5 {
      writer.stage(value, for: key)
      try writer.flush()
      try reader.refresh()
    }
    #expect(heard.values.map(\.newValue) == [2, 3, 4, 5])
    #expect(heard.values.allSatisfy { $0.origin == .anotherStore })
    #expect(reader.value(for: StoreKey<Int>("other")) == 1)
  }

  /// A store that watches the file (inotify on Linux) hears another store's append on
  /// its own, without `refresh()`.
  @Test func aWatchingStoreHearsAnAppendByItself() throws {
    let folder = TemporaryFolder()
    let key = StoreKey<Int>("shared")
    let writer = try openJournaling(folder.file())
    writer.stage(1, for: key)
    try writer.flush()
    let reader = try openJournaling(folder.file(), changeCheckInterval: .milliseconds(50))
    #expect(reader.value(for: key) == 1)
    writer.stage(2, for: key)
    try writer.flush()
    #expect(eventually { reader.value(for: key) == 2 })
  }

  /// Two processes each write 60 keys of their own, flushing every ten, each appending
  /// to one journal: every key of both is in the file afterwards.
  @Test func twoProcessesAppendingKeepEachOthersKeys() throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    let children = try ["a", "b"].map { prefix in
      try ChildProcess(program, ["writer-journal", folder.file(), prefix, "60"])
    }
    for child in children {
      let (output, errors, succeeded) = child.wait()
      #expect(succeeded, "child failed: \(errors)")
      #expect(output.contains("done"))
    }
    let store = try openStore(folder.file())
    for prefix in ["a", "b"] {
      for index in 0..<60 {
        #expect(store.value(for: StoreKey<Int>("\(prefix).\(index)")) == index)
      }
    }
  }

  /// A file of an older schema version with a journal is migrated with the journal's
  /// records in it; the migrated file is written whole and the journal removed.
  @Test func aJournalIsMigratedWithItsFile() throws {
    let folder = TemporaryFolder()
    do {
      let store = try openJournaling(folder.file())
      store.stage(1, for: StoreKey<Int>("user"))
      store.stage(true, for: StoreKey<Bool>("legacyFlag"))
      try store.flush()
      store.stage(2, for: StoreKey<Int>("user"))
      try store.flush()
    }
    // A background write may take the first stage alone: then the second is a line too.
    #expect(journalLines(folder.file()).count >= 2)
    let migrations = [
      StoreMigration(to: 2, steps: [.renameKey("user", to: "profile"), .dropKey("legacyFlag")])
    ]
    let store = try openJournaling(folder.file(), migrations: migrations)
    #expect(store.value(for: StoreKey<Int>("profile")) == 2)
    #expect(store.value(for: StoreKey<Int>("user")) == nil)
    #expect(!FileManager.default.fileExists(atPath: folder.file() + ".journal"))
    let contents = text(at: folder.file())
    #expect(contents.contains(#""version" : 2"#))
    #expect(contents.contains(#""profile" : 2"#))
    #expect(!contents.contains("legacyFlag"))
  }

  /// After any mix of stages, batches, updates and flushes — with compactions between —
  /// a store opened on the file holds exactly what the writing store holds in memory.
  @Test(arguments: [0.25, 1_000])
  func aReopenedStoreEqualsTheWritingStore(compactionRatio: Double) throws {
    let folder = TemporaryFolder()
    let store = try openJournaling(folder.file(), compactionRatio: compactionRatio)
    let keys = Self.keys(40)
    var generator = SystemRandomNumberGenerator()
    for step in 0..<300 {
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        store.stage(step, for: keys.randomElement(using: &generator)!)
      case 1:
        try store.batch { batch in
          for key in keys.shuffled(using: &generator).prefix(5) { batch.stage(-step, for: key) }
        }
      case 2:
        store.update(0, for: keys.randomElement(using: &generator)!) { $0 += 1 }
      default:
        try store.flush()
      }
    }
    try store.flush()
    let reopened = try openStore(folder.file())
    for key in keys {
      #expect(reopened.value(for: key) == store.value(for: key), "\(key.name)")
    }
  }

  /// A failing append (a full disk) keeps the journal's whole lines as they were, keeps
  /// the value in memory, and the next flush writes it.
  @Test func aFailedAppendLeavesTheJournalWholeAndIsRetried() throws {
    let folder = TemporaryFolder()
    let failing = LockedBox(false)
    let key = StoreKey<Int>("value")
    let store = try Store(
      persistence: .file(path: folder.file(), changeCheckInterval: nil)
        .journaling(fromFileSize: 0, compactionRatio: 1_000)
        .failingWrites { failing.withLock { $0 } ? ENOSPC : nil })
    store.stage(1, for: key)
    try store.flush()
    store.stage(2, for: key)
    try store.flush()
    let journal = text(at: folder.file() + ".journal")
    failing.withLock { $0 = true }
    store.stage(3, for: key)
    #expect(throws: StoreError.diskFull(path: folder.file() + ".journal")) { try store.flush() }
    #expect(text(at: folder.file() + ".journal") == journal)
    failing.withLock { $0 = false }
    try store.flush()
    #expect(try openStore(folder.file()).value(for: key) == 3)
  }
}
