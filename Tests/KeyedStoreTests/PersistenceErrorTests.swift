import Foundation
import KeyedStore
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct PersistenceErrorTests {
  static let unreadableContents: [String] = [
    "",
    "garbage \u{0}\u{1}",
    #"{"format": "ripple.keyedstore", "version": 1, "values": {"a": 1"#,  // truncated
    #"{"format": "ripple.keyedstore", "version": 1}"#,  // no values
    #"{"format": "something.else", "version": 1, "values": {}}"#,
    "[1, 2, 3]",
  ]

  @Test(arguments: unreadableContents)
  func anUnreadableFileThrowsAndIsLeftUntouched(contents: String) throws {
    let folder = TemporaryFolder()
    write(contents, to: folder.file())
    #expect(throws: StoreError.self) { try openStore(folder.file()) }
    do {
      _ = try openStore(folder.file())
    } catch {
      guard case .corruptFile(let path, _) = error as? StoreError else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == folder.file())
    }
    #expect(text(at: folder.file()) == contents)
  }

  @Test func moveAsideKeepsTheCorruptBytesAndStartsEmpty() throws {
    let folder = TemporaryFolder()
    let contents = #"{"format": "ripple.keyedstore", "version": 1, "values": {"a": "#
    write(contents, to: folder.file())
    let store = try openStore(folder.file(), ifCorrupt: .moveAside)
    #expect(store.value(for: StoreKey<Int>("a")) == nil)
    let movedAside = folder.contents.filter { $0.hasPrefix("store.json.corrupt-") }
    #expect(movedAside.count == 1)
    #expect(movedAside.first.map { text(at: folder.file($0)) } == contents)
    store.stage(1, for: StoreKey<Int>("a"))
    try store.flush()
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("a")) == 1)
  }

  @Test func aDirectoryAtThePathIsNotAFile() throws {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file(), withIntermediateDirectories: true)
    #expect(throws: StoreError.notAFile(path: folder.file())) { try openStore(folder.file()) }
  }

  @Test func aPathThroughAFileIsUnreadable() throws {
    let folder = TemporaryFolder()
    write("not a folder", to: folder.file("plain"))
    let path = folder.file("plain/store.json")
    do {
      _ = try openStore(path)
      Issue.record("expected an error")
    } catch {
      let error = error as? StoreError
      switch error {
      case .unreadable(let failing, _), .writeFailed(let failing, _):
        #expect(failing.hasPrefix(path))
      default: Issue.record("unexpected \(String(describing: error))")
      }
    }
    #expect(text(at: folder.file("plain")) == "not a folder")
  }

  @Test(arguments: [(ENOSPC, "disk full"), (EIO, "I/O error")])
  func aFailedWriteKeepsThePreviousFileAndIsRetried(code: Int32, label: String) throws {
    let folder = TemporaryFolder()
    let fault = LockedBox<Int32?>(nil)
    let persistence = Persistence.file(path: folder.file(), changeCheckInterval: nil)
      .failingWrites { fault.withLock { $0 } }
    let store = try Store(persistence: persistence)
    store.stage(1, for: StoreKey<Int>("value"))
    try store.flush()
    let before = bytes(at: folder.file())
    fault.withLock { $0 = code }
    store.stage(2, for: StoreKey<Int>("value"))
    do {
      try store.flush()
      Issue.record("expected \(label)")
    } catch {
      if code == ENOSPC {
        #expect(error == .diskFull(path: folder.file()))
      } else {
        guard case .writeFailed(let path, _) = error else {
          Issue.record("unexpected \(error)")
          return
        }
        #expect(path == folder.file())
      }
      #expect(error.description.contains("flush() again"))
    }
    #expect(bytes(at: folder.file()) == before)
    #expect(!folder.contents.contains { $0.contains(".tmp-") })
    #expect(store.value(for: StoreKey<Int>("value")) == 2)
    fault.withLock { $0 = nil }
    try store.flush()
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("value")) == 2)
  }

  @Test func aFileOfANewerVersionThrowsAndIsLeftUntouched() throws {
    let folder = TemporaryFolder()
    let contents = storeFile(version: 3, values: #"{"a": 1}"#)
    write(contents, to: folder.file())
    #expect(throws: StoreError.newerVersion(path: folder.file(), found: 3, supported: 1)) {
      try openStore(folder.file())
    }
    #expect(text(at: folder.file()) == contents)
  }

  @Test func aValueThatCannotBeEncodedIsReportedByFlush() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(Double.nan, for: StoreKey<Double>("ratio"))
    store.stage(1, for: StoreKey<Int>("fine"))
    do {
      try store.flush()
      Issue.record("expected an encoding error")
    } catch {
      guard case .unencodableValue(let key, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(key == "ratio")
    }
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("fine")) == 1)
  }

  static let errors: [StoreError] = [
    .corruptFile(path: "/p/s.json", reason: "truncated"),
    .notAFile(path: "/p/s.json"),
    .unreadable(path: "/p/s.json", reason: "Permission denied"),
    .newerVersion(path: "/p/s.json", found: 3, supported: 2),
    .migrationFailed(path: "/p/s.json", version: 2, step: "dropKey(\"a\")", reason: "no"),
    .undecodableValue(key: "count", type: "Int", path: "/p/s.json", reason: "a string"),
    .diskFull(path: "/p/s.json"),
    .writeFailed(path: "/p/s.json", reason: "Read-only file system"),
  ]

  @Test(arguments: errors)
  func everyFileErrorNamesThePathAndSaysWhatToDo(error: StoreError) {
    #expect(error.description.contains("/p/s.json"))
    let advice = ["Restore", "Move", "Check", "Run", "Fix", "Add", "Free"]
    #expect(advice.contains { error.description.contains($0) })
  }
}
