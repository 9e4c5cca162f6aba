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
    try DurableFile.checkRegularIfPresent(path)
    let fileLock = try FileLock(path: path + ".lock")
    let snapshot = try fileLock.withExclusiveLock(timeout: options.lockTimeout, for: path) {
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
    storage.withLock { state in
      state.filePath = options.givenPath ?? path
      state.stored = snapshot?.values ?? [:]
    }
    let persistence = StorePersistence(
      options: options, storage: storage, deliveries: deliveries, fileLock: fileLock,
      snapshot: snapshot)
    if let interval = options.changeCheckInterval { persistence.watch(every: interval) }
    OpenStores.add(persistence)
    return persistence
  }

  /// Reads and parses the file and its journal, moving a corrupt one aside when
  /// `movingCorruptAside` and the options say so.
  ///
  /// Without the file lock, a writer may rewrite the file between the reads of the file
  /// and of its journal (removing the journal read against): then both are read again.
  ///
  /// - Returns: The values with the journal applied, or `nil` when there is no file (any
  ///   more).
  private static func readFile(_ options: Persistence.FileOptions, movingCorruptAside: Bool)
    throws(StoreError) -> FileSnapshot?
  {
    var attempt = 0
    while true {
      attempt += 1
      guard let (data, stamp) = try DurableFile.read(options.path) else { return nil }
      let file: PersistedFile
      do throws(StoreError) {
        file = try PersistedFile.parse(data, path: options.path)
      } catch {
        guard case .corruptFile = error, movingCorruptAside, options.ifCorrupt == .moveAside
        else { throw error }
        _ = try DurableFile.moveAside(options.path)
        return nil
      }
      var snapshot = FileSnapshot(
        values: file.values, version: file.version, stamp: stamp, generation: file.generation,
        journal: JournalState())
      try readJournal(into: &snapshot, options, movingCorruptAside: movingCorruptAside)
      if attempt >= 8 || DurableFile.stamp(options.path) == stamp { return snapshot }
    }
  }

  /// Reads the whole journal and applies its records to `snapshot`, when it belongs to
  /// the file's generation; a stale one (or none) leaves the values as they are.
  private static func readJournal(
    into snapshot: inout FileSnapshot, _ options: Persistence.FileOptions,
    movingCorruptAside: Bool
  ) throws(StoreError) {
    let journalPath = StoreJournal.path(for: options.path)
    guard let (data, stamp) = try DurableFile.read(journalPath) else { return }
    guard let generation = snapshot.generation else {
      snapshot.journal = JournalState(stamp: stamp, end: data.count, isLive: false)
      return
    }
    let contents: StoreJournal.Contents
    do throws(StoreError) {
      contents = try StoreJournal.parse(
        data, from: 0, generation: generation, path: journalPath)
    } catch {
      guard movingCorruptAside, options.ifCorrupt == .moveAside else { throw error }
      _ = try DurableFile.moveAside(journalPath)
      return
    }
    let isLive = contents.header?.generation == generation
    snapshot.journal = JournalState(stamp: stamp, end: contents.end, isLive: isLive)
    guard isLive else { return }
    for record in contents.records {
      snapshot.values.merge(record) { _, new in new }
    }
  }

  /// Replaces the file with `values` at the store's schema version, then removes the
  /// journal, whose records are in the file now. A file of ``Persistence/FileOptions/journalThreshold``
  /// bytes or more gets a new generation, which starts a new journal.
  ///
  /// - Returns: The new file's stamp and generation.
  static func rewrite(_ values: [String: StoredJSON], options: Persistence.FileOptions)
    throws(StoreError) -> (FileStamp, String?)
  {
    let version = options.schemaVersion
    var generation: String?
    var data = try encode(PersistedFile(version: version, values: values), path: options.path)
    if data.count >= options.journalThreshold {
      generation = StoreJournal.newGeneration()
      data = try encode(
        PersistedFile(version: version, values: values, generation: generation),
        path: options.path)
    }
    let stamp = try DurableFile.replace(options.path, with: data, fault: options.writeFault?())
    // After the rename: a journal left by a crash here is stale (another generation).
    DurableFile.remove(StoreJournal.path(for: options.path))
    return (stamp, generation)
  }

  private static func encode(_ file: PersistedFile, path: String) throws(StoreError) -> Data {
    do {
      return try file.encoded()
    } catch {
      throw .writeFailed(path: path, reason: describe(error))
    }
  }

  // MARK: Writing

  /// Queues a background write: called by the stage that dirtied the first entry since
  /// the last write, so that a burst of stages costs one write.
  ///
  /// Background writes are paced to take at most about a tenth of the time: after a
  /// write that took *d*, the next background write waits until 9 *d* have passed, and
  /// every stage meanwhile joins it. A write of a millisecond (a small file, or a journal
  /// append) is made almost at once; a slow one (a disk that syncs slowly) waits longer,
  /// however often the store changes, instead of writing all the time.
  /// `flush()` and the exit flush are never delayed.
  @usableFromInline
  func requestWrite() {
    queue.async { [self] in writeWhenPaced() }
  }

  /// Runs on ``queue``: writes now if the pacing allows, or comes back when it does. The
  /// pacing is looked at here, after any write queued ahead has finished and recorded
  /// its duration, so that a stage made during a write waits its turn too.
  private func writeWhenPaced() {
    let delay = pacing.withLock { $0.delay(at: .now) }
    guard delay <= .zero else {
      let (seconds, attoseconds) = delay.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      // Weak: a store released meanwhile has flushed as it closed.
      queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
        self?.writeWhenPaced()
      }
      return
    }
    let start = ContinuousClock.now
    // A failed background write keeps its values dirty (or, for a value that cannot be
    // encoded, its error): `flush()` retries and throws. The app hears it now.
    do throws(StoreError) {
      try write()
    } catch {
      errors.send(reported(error))
    }
    let end = ContinuousClock.now
    pacing.withLock { $0.wrote(from: start, to: end) }
  }

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
  /// ``OpenStores/exitLockTimeout`` for the file lock, delivers nothing, reports nothing.
  func closeAtExit() {
    stopWatching()
    try? write(
      closing: true, delivering: false,
      lockTimeout: min(options.lockTimeout, OpenStores.exitLockTimeout))
  }

  private func stopWatching() {
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

  /// One write cycle, then the delivery of what other stores changed.
  ///
  /// The dirty values are taken while holding ``cycle``, so that a flush waits for a
  /// background write that took them first: it returns only once they are durable.
  ///
  /// - Parameters:
  ///   - closing: Whether this is the last write: after it, nothing is written.
  ///   - delivering: Whether to deliver what other stores changed; not at exit.
  ///   - lockTimeout: How long to wait for the file lock; the options' by default.
  private func write(
    closing: Bool = false, delivering: Bool = true, lockTimeout: Duration? = nil
  ) throws(StoreError) {
    try cycle.withLock { state throws(StoreError) in
      // Checked under the lock, so that no write queued before `close()` runs after it.
      guard !state.isClosed else { return }
      if closing { state.isClosed = true }
      // Encoded before taking the file lock, so that other writers wait less.
      guard let (pending, encoded) = takeDirty(&state) else { return }
      do throws(StoreError) {
        try fileLock.withExclusiveLock(timeout: lockTimeout ?? options.lockTimeout, for: path) {
          () throws(StoreError) in
          try merge(encoded, into: &state)
        }
      } catch {
        // Nothing was written: the values stay dirty, so that the next write retries.
        storage.withLock { $0.markDirtyAgain(pending) }
        throw error
      }
    }
    if delivering { deliverExternalChanges() }
  }

  /// Takes the dirty entries' values and encodes them; a value that cannot be encoded is
  /// left out, and its error kept for the next flush.
  ///
  /// - Returns: The entries taken and their encoded values, or `nil` when none is dirty.
  private func takeDirty(_ state: inout CycleState) -> ([StoreEntry], [String: StoredJSON])? {
    let pending = storage.withLock { $0.takeDirty() }
    guard !pending.isEmpty else { return nil }
    var encoded: [String: StoredJSON] = [:]
    for (entry, value) in pending {
      do {
        encoded[entry.name] = try StoredJSON(encoding: value)
      } catch {
        state.unreportedError =
          state.unreportedError ?? .unencodableValue(key: entry.name, reason: describe(error))
      }
    }
    return (pending.map(\.0), encoded)
  }

  /// Commits a change against the file's current contents, as one step among every store
  /// and process that shares the file: holding the file lock, it reads the file if it
  /// changed, commits what other stores changed, runs `commit` on the store's state, and
  /// writes the file before releasing the lock. What `update(_:for:_:)` and batches use.
  ///
  /// When the file cannot be locked or read, or the store is closed, `commit` runs on the
  /// store's state alone and the write is left to the background; the failure is kept
  /// for the next flush. Call holding the delivery drain.
  ///
  /// - Parameter commit: Commits under the store's state lock; returns the outcome and
  ///   its delivery.
  /// - Returns: `commit`'s outcome, and the deliveries to run (other stores' changes
  ///   first).
  func transaction<Outcome>(_ commit: (inout StoreState) -> (Outcome, any Delivery)) -> (
    Outcome, [any Delivery]
  ) {
    let timestamp = ContinuousClock.now
    var inMemoryOnly = false
    var failure: StoreError?
    let result = cycle.withLock { state -> (Outcome, [any Delivery]) in
      if !state.isClosed {
        do throws(StoreError) {
          return try fileLock.withExclusiveLock(timeout: options.lockTimeout, for: path) {
            () throws(StoreError) -> (Outcome, [any Delivery]) in
            try absorbFile(into: &state, except: [:], movingCorruptAside: true)
            let result = storage.withLock { storeState in
              var deliveries = storeState.commitExternal(at: timestamp)
              let (outcome, delivery) = commit(&storeState)
              deliveries.append(delivery)
              return (outcome, deliveries)
            }
            // Written under the same lock hold: no other writer sees the file between.
            if let (pending, encoded) = takeDirty(&state) {
              do throws(StoreError) {
                try merge(encoded, into: &state)
              } catch {
                storage.withLock { $0.markDirtyAgain(pending) }
                state.unreportedError = state.unreportedError ?? error
                failure = error
              }
            }
            return result
          }
        } catch {
          state.unreportedError = state.unreportedError ?? error
          failure = error
        }
      }
      inMemoryOnly = true
      return storage.withLock { storeState in
        let (outcome, delivery) = commit(&storeState)
        return (outcome, [delivery])
      }
    }
    if inMemoryOnly { requestWrite() }
    if let failure { errors.send(reported(failure)) }
    return result
  }

  /// Brings what this store knows of the file up to date: reads the file when its stamp
  /// changed, and notes what other stores changed, except the keys in `encoded`.
  ///
  /// - Parameter movingCorruptAside: Whether a corrupt file may be moved aside (as the
  ///   options say); a watcher only reads.
  func absorbFile(
    into state: inout CycleState, except encoded: [String: StoredJSON], movingCorruptAside: Bool
  ) throws(StoreError) {
    let stamp = DurableFile.stamp(path)
    if let stamp, stamp == state.stamp {
      let journalStamp = DurableFile.stamp(journalPath)
      if journalStamp == state.journal.stamp { return }
      // Only the journal changed: read what was appended since.
      if let journalStamp, try absorbJournal(into: &state, stamp: journalStamp, except: encoded) {
        state.watchFailure = nil
        return
      }
    }
    guard let snapshot = try Self.readFile(options, movingCorruptAside: movingCorruptAside) else {
      // Deleted: the store keeps its values, and its next write recreates the file.
      state.stamp = nil
      state.fileVersion = nil
      state.generation = nil
      state.journal = JournalState()
      state.watchFailure = nil
      return
    }
    let version = options.schemaVersion
    if snapshot.version > version {
      throw .newerVersion(path: path, found: snapshot.version, supported: version)
    }
    // A file of an older version (an older build wrote it since) is migrated whenever
    // it is read; the next write labels it with this version.
    let values =
      try options.migrations.migrate(snapshot.values, from: snapshot.version, path: path)
      ?? snapshot.values
    noteExternal(FileChanges(from: state.known, to: values), except: encoded)
    state.known = values
    state.stamp = snapshot.stamp
    state.fileVersion = snapshot.version
    state.generation = snapshot.generation
    state.journal = snapshot.journal
    state.watchFailure = nil
  }

}
