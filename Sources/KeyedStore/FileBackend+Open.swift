import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Opening the store file: resolving its path, reading it, migrating it; and rewriting it
// whole.
extension FileBackend {
  /// Opens the file: reads it and migrates it.
  ///
  /// - Throws: A ``StoreError`` naming the file; the file is left as it was.
  static func open(_ options: Persistence.FileOptions) throws(StoreError) -> FileBackend {
    let given = options.path
    if given.isEmpty || given.hasSuffix("/") { throw .notAFile(path: given) }
    let path = try DurableFile.resolve(given)
    var options = options
    options.path = path
    options.givenPath = given
    do throws(StoreError) {
      return try open(resolved: options)
    } catch {
      throw error.replacingPath(path, with: given)
    }
  }

  /// ``open(_:)`` once the path is resolved.
  private static func open(resolved options: Persistence.FileOptions) throws(StoreError)
    -> FileBackend
  {
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
    return FileBackend(options: options, fileLock: fileLock, snapshot: snapshot)
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

  static func encode(_ file: PersistedFile, path: String) throws(StoreError) -> Data {
    do {
      return try file.encoded()
    } catch {
      throw .writeFailed(path: path, reason: describe(error))
    }
  }
}
