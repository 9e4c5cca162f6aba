import Foundation
import KeyedStore
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct ErrorDeliveryTests {
  /// An app that never calls `flush()` still hears that a background write failed.
  @Test func aFailedBackgroundWriteIsPublished() throws {
    let folder = TemporaryFolder()
    let persistence = Persistence.file(path: folder.file(), changeCheckInterval: nil)
      .failingWrites { ENOSPC }
    let store = try Store(persistence: persistence)
    let heard = Recorder<StoreError>()
    let subscription = store.errors.sink { heard.append($0) }
    store.stage(1, for: .someInt)
    #expect(eventually { heard.values.contains(.diskFull(path: folder.file())) })
    #expect(throws: StoreError.diskFull(path: folder.file())) { try store.flush() }
    subscription.cancel()
  }

  /// The watcher's failure to read the file is published once, and every flush throws it
  /// while it stands; once the file reads again, flush succeeds.
  @Test func aFileThatTurnsUnreadableIsPublishedAndThrownByFlush() throws {
    let folder = TemporaryFolder()
    let store = try Store(
      persistence: .file(path: folder.file(), changeCheckInterval: .milliseconds(5)))
    let heard = Recorder<StoreError>()
    let subscription = store.errors.sink { heard.append($0) }
    store.stage(1, for: .someInt)
    try store.flush()
    write("garbage", to: folder.file())
    #expect(eventually { !heard.values.isEmpty })
    guard case .corruptFile(let path, _) = heard.values.first else {
      Issue.record("unexpected \(heard.values)")
      return
    }
    #expect(path == folder.file())
    #expect(throws: StoreError.self) { try store.flush() }
    write(storeFile(values: #"{"someInt": 2}"#), to: folder.file())
    #expect(eventually { store.value(for: .someInt) == 2 })
    try store.flush()
    #expect(heard.values.count == 1)
    subscription.cancel()
  }

  /// A store released with a write that fails publishes the failure to those still
  /// subscribed.
  @Test func aFailureWhenTheStoreIsReleasedIsPublished() throws {
    let folder = TemporaryFolder()
    let failing = LockedBox(false)
    let persistence = Persistence.file(path: folder.file(), changeCheckInterval: nil)
      .failingWrites { failing.withLock { $0 } ? EIO : nil }
    var store: Store? = try Store(persistence: persistence)
    let heard = Recorder<StoreError>()
    let subscription = store!.errors.sink { heard.append($0) }
    failing.withLock { $0 = true }
    store!.stage(1, for: .someInt)
    store = nil
    #expect(eventually { !heard.values.isEmpty })
    #expect(heard.values.allSatisfy { if case .writeFailed = $0 { true } else { false } })
    subscription.cancel()
  }

  @Test func anInMemoryStorePublishesNoErrors() throws {
    let store = Store()
    let heard = Recorder<StoreError>()
    let subscription = store.errors.sink { heard.append($0) }
    store.stage(1, for: .someInt)
    try store.flush()
    #expect(heard.values.isEmpty)
    subscription.cancel()
  }

  /// Deleting the file of an open store does not reset it: the store still holds its
  /// values, and its next write puts all of them back in a new file. A store opened
  /// while the file is gone starts empty.
  @Test func aDeletedFileIsRecreatedWithWhatTheStoreHolds() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: .someInt)
    try store.flush()
    #expect(unlink(folder.file()) == 0)
    #expect(try openStore(folder.file()).value(for: .someInt) == nil)
    try store.refresh()
    #expect(store.value(for: .someInt) == 1)
    store.stage("back", for: .someString)
    try store.flush()
    let reopened = try openStore(folder.file())
    #expect(reopened.value(for: .someInt) == 1)
    #expect(reopened.value(for: .someString) == "back")
  }

  /// An older build recreates the file at a lower schema version while a newer store has
  /// it open: the newer store runs its migrations on what it reads, and its next write
  /// labels the file with its own version.
  @Test func aLowerVersionFileThatAppearsLaterIsMigratedWhenRead() throws {
    let folder = TemporaryFolder()
    let migrations = [StoreMigration(to: 2, steps: [.renameKey("name", to: "userName")])]
    let store = try openStore(folder.file(), migrations: migrations)
    let userName = StoreKey<String>("userName")
    store.stage("Ada", for: userName)
    try store.flush()
    write(storeFile(version: 1, values: #"{"name": "Grace"}"#), to: folder.file())
    try store.refresh()
    #expect(store.value(for: userName) == "Grace")
    #expect(store.value(for: StoreKey<String>("name")) == nil)
    store.stage(1, for: .someInt)
    try store.flush()
    #expect(text(at: folder.file()).contains(#""version" : 2"#))
    let reopened = try openStore(folder.file(), migrations: migrations)
    #expect(reopened.value(for: userName) == "Grace")
    #expect(reopened.value(for: StoreKey<String>("name")) == nil)
  }
}
