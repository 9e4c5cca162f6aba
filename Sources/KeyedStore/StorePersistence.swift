import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps a store's `Codable` values in its file: writes them in the background,
/// coalesced, and brings in what other stores wrote.
///
/// A stage only marks its entry dirty (under the store's lock) and, for the first dirty
/// entry since the last write, queues a write on ``queue``; everything else happens off
/// the staging thread. A write cycle takes the dirty entries' values, encodes them,
/// and, holding the file lock, brings in what changed in the file, merges them over it
/// (per key, the last writer wins) and writes: a small file is replaced atomically; a
/// large one gets the changed keys appended to its journal (``StoreJournal``), and is
/// rewritten with the journal in it, in the background, once the journal has grown.
/// Values another store wrote meanwhile are delivered to this store's observers as
/// ordinary mutations.
///
/// # Thread safety
/// `cycle` guards the write cycle and what the store believes the file holds; it is
/// held across file I/O but never while waiting for the store's lock or delivery drain
/// (`flush()` may run inside an observer, which holds the drain), so the lock order is
/// drain, then `cycle`, then the store's state lock.
@usableFromInline
final class StorePersistence: Sendable {
  let options: Persistence.FileOptions
  let storage: StoreStorage
  let deliveries: DeliveryDrain
  /// Runs background writes and change checks, one at a time.
  let queue = DispatchQueue(label: "Ripple.KeyedStore.persistence", qos: .utility)
  let fileLock: FileLock
  /// The write cycle's lock and what it guards.
  let cycle: LockedBox<CycleState>
  /// When the next background write may start (see ``requestWrite()``).
  let pacing = LockedBox(WritePacing())
  /// Failures of background writes, change checks, updates and the final write: what
  /// ``Store/errors`` publishes. Sent to with no lock of the store held.
  let errors = PassthroughSubject<StoreError, Never>()

  /// What a write cycle knows, guarded by ``cycle``.
  struct CycleState {
    /// The values the file held when this store last read or wrote it: what tells
    /// another store's changes from this store's own.
    var known: [String: StoredJSON]
    /// The file's stamp then, so that an unchanged file is not read again.
    var stamp: FileStamp?
    /// The schema version of the file then; `nil` when there was no file.
    var fileVersion: Int?
    /// The file's generation then: the journal it has, if any (see ``StoreJournal``).
    var generation: String?
    /// What this store last read or wrote of the journal.
    var journal = JournalState()
    /// Whether a compaction is queued.
    var isCompactionQueued = false
    var writes = 0
    var isClosed = false
    /// Why the last change check failed, while that stands: published once, and thrown
    /// by every flush until a check reads the file again.
    var watchFailure: StoreError?
    /// A value that could not be encoded in a background write, for the next flush to
    /// report: that value is not retried, so its error must not be lost.
    var unreportedError: StoreError?
    /// Values a write refused (they cannot be encoded), to publish once the write ends.
    var unpublished: [StoreError] = []
    /// Whether a read-only store has published that it cannot write.
    var reportedReadOnly = false
    var timer: (any DispatchSourceTimer)?
    #if canImport(Glibc)
      /// The inotify watch of the file's folder, when the store watches.
      var folderWatcher: FolderWatcher?
    #endif
  }

  /// The real path of the store file, which every file operation uses.
  var path: String { options.path }
  /// The real path of its journal.
  var journalPath: String { StoreJournal.path(for: options.path) }
  /// The path the app gave, which errors and ``Store/persistencePath`` name.
  var givenPath: String { options.givenPath ?? options.path }

  /// `error` naming the path the app gave instead of the resolved one.
  func reported(_ error: StoreError) -> StoreError {
    error.replacingPath(path, with: givenPath)
  }

  private init(
    options: Persistence.FileOptions, storage: StoreStorage, deliveries: DeliveryDrain,
    fileLock: FileLock, snapshot: FileSnapshot?
  ) {
    self.options = options
    self.storage = storage
    self.deliveries = deliveries
    self.fileLock = fileLock
    cycle = LockedBox(
      CycleState(
        known: snapshot?.values ?? [:], stamp: snapshot?.stamp, fileVersion: snapshot?.version,
        generation: snapshot?.generation, journal: snapshot?.journal ?? JournalState()))
  }

  deinit {
    stopWatching()
    OpenStores.remove(self)
  }

  /// Opens the file: reads it, migrates it, and hands its values to `storage`, to be
  /// decoded on each key's first typed access.
  ///
  /// - Throws: A ``StoreError`` naming the file; the file is left as it was.
  static func open(
    _ options: Persistence.FileOptions, storage: StoreStorage, deliveries: DeliveryDrain
  ) throws(StoreError) -> StorePersistence {
    let given = options.path
    if given.isEmpty || given.hasSuffix("/") { throw .notAFile(path: given) }
    let path = try DurableFile.resolve(given)
    var options = options
    options.path = path
    options.givenPath = given
    do throws(StoreError) {
      return try open(resolved: options, storage: storage, deliveries: deliveries)
    } catch {
      throw error.replacingPath(path, with: given)
    }
  }

  /// ``open(_:storage:deliveries:)`` once the path is resolved.
  private static func open(
    resolved options: Persistence.FileOptions, storage: StoreStorage, deliveries: DeliveryDrain
  ) throws(StoreError) -> StorePersistence {
    let path = options.path
    // Before the lock and any open: a FIFO here must not block.
    try DurableFile.checkRegularIfPresent(path, as: .storeFile)
    try DurableFile.checkRegularIfPresent(StoreJournal.path(for: path), as: .journal)
    let fileLock = try FileLock(path: path + ".lock")
    let snapshot: FileSnapshot?
    if fileLock.isReadOnly {
      snapshot = try fileLock.withSharedLock(timeout: options.lockTimeout, for: path) {
        () throws(StoreError) -> FileSnapshot? in try readOnlySnapshot(options)
      }
    } else {
      snapshot = try writableSnapshot(options, fileLock: fileLock)
    }
    let persistence = StorePersistence(
      options: options, storage: storage, deliveries: deliveries, fileLock: fileLock,
      snapshot: snapshot)
    storage.withLock { state in
      state.filePath = options.givenPath ?? path
      state.stored = snapshot?.values ?? [:]
      // The subject and queue, not the persistence: no cycle through the storage, and no
      // weak reference (whose side table LeakSanitizer cannot trace at exit).
      state.reportUndecodable = { [errors = persistence.errors, queue = persistence.queue] error in
        queue.async { errors.send(error) }
      }
    }
    if let interval = options.changeCheckInterval { persistence.watch(every: interval) }
    OpenStores.add(persistence)
    return persistence
  }

  /// Reads the file for a store that may write it, holding the file lock: removes what
  /// dead writers left, moves a corrupt file aside if the options say so, and migrates
  /// the file (rewriting it) when it is of an older schema version.
  private static func writableSnapshot(_ options: Persistence.FileOptions, fileLock: FileLock)
    throws(StoreError) -> FileSnapshot?
  {
    let path = options.path
    return try fileLock.withExclusiveLock(timeout: options.lockTimeout, for: path) {
      () throws(StoreError) -> FileSnapshot? in
      // Every writer holds the lock while its temporary file exists: any left now
      // belongs to a writer that died mid-write.
      DurableFile.removeStaleTemporaries(of: path)
      DurableFile.removeStaleTemporaries(of: StoreJournal.path(for: path))
      guard var snapshot = try readFile(options, movingCorruptAside: true) else { return nil }
      let version = options.schemaVersion
      if snapshot.version > version {
        throw .newerVersion(path: path, found: snapshot.version, supported: version)
      }
      guard
        let migrated = try options.migrations.migrate(
          snapshot.values, from: snapshot.version, path: path)
      else { return snapshot }
      // Every step succeeded: only now is the file rewritten (with the journal in it).
      let (stamp, generation) = try rewrite(migrated, options: options)
      snapshot = FileSnapshot(
        values: migrated, version: version, stamp: stamp, generation: generation,
        journal: JournalState())
      return snapshot
    }
  }

  /// Reads the file for a store that cannot write it (see ``FileLock/isReadOnly``):
  /// moves nothing aside, and migrates an older file's values in memory only.
  private static func readOnlySnapshot(_ options: Persistence.FileOptions)
    throws(StoreError) -> FileSnapshot?
  {
    guard var snapshot = try readFile(options, movingCorruptAside: false) else { return nil }
    let version = options.schemaVersion
    if snapshot.version > version {
      throw .newerVersion(path: options.path, found: snapshot.version, supported: version)
    }
    if let migrated = try options.migrations.migrate(
      snapshot.values, from: snapshot.version, path: options.path)
    {
      snapshot.values = migrated
    }
    return snapshot
  }

  /// Whether this store can only read its file: it cannot write the folder or the lock
  /// file. Every write then fails with ``StoreError/writeFailed(path:reason:)``.
  var isReadOnly: Bool { fileLock.isReadOnly }

  /// Writes everything committed before this call, and returns once it is durable.
  func flush() throws(StoreError) {
    do throws(StoreError) {
      try write()
    } catch {
      throw reported(error)
    }
    let unreported = cycle.withLock { state in
      defer { state.unreportedError = nil }
      return state.unreportedError ?? state.watchFailure
    }
    if let unreported { throw reported(unreported) }
  }

  /// Flushes, then stops writing and watching: later stages stay in memory.
  func close() throws(StoreError) {
    OpenStores.remove(self)
    stopWatching()
    do throws(StoreError) {
      try write(closing: true)
    } catch {
      throw reported(error)
    }
  }

  /// Closes a store that is being released, publishing a failure to whoever still
  /// listens: nobody can call `flush()` any more.
  func closeReleased() {
    do throws(StoreError) {
      try close()
    } catch {
      errors.send(error)
    }
  }

  /// Writes what is dirty and closes, for a process that is exiting: waits at most
  /// ``OpenStores/exitLockTimeout`` for the file lock and delivers nothing to observers.
  ///
  /// A failure cannot be thrown to anyone: it is written to standard error (the file and
  /// the reason, never a value), handed to ``Store/exitFlushFailureHandler``, and sent to
  /// ``errors``, so that values lost at exit are never lost without a word.
  func closeAtExit() {
    stopWatching()
    do throws(StoreError) {
      try write(
        closing: true, delivering: false,
        lockTimeout: min(options.lockTimeout, OpenStores.exitLockTimeout))
    } catch {
      let failure = reported(error)
      OpenStores.reportExitFailure(failure)
      errors.send(failure)
    }
  }

  func stopWatching() {
    let timer = cycle.withLock { state in
      defer { state.timer = nil }
      return state.timer
    }
    timer?.cancel()
    #if canImport(Glibc)
      let watcher = cycle.withLock { state in
        defer { state.folderWatcher = nil }
        return state.folderWatcher
      }
      watcher?.cancel()
    #endif
  }

  /// How many times this store wrote its file: replaced it, or appended to its journal.
  var writeCount: Int { cycle.withLock { $0.writes } }
}
