import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Reading the file and its journal: at open, in a change check, and before each write.
extension FileBackend {

  /// Reads and parses the file and its journal, moving a corrupt one aside when
  /// `movingCorruptAside` and the options say so.
  ///
  /// Without the file lock, a writer may rewrite the file between the reads of the file
  /// and of its journal (removing the journal read against): then both are read again.
  ///
  /// - Returns: The values with the journal applied, or `nil` when there is no file (any
  ///   more).
  static func readFile(_ options: Persistence.FileOptions, movingCorruptAside: Bool)
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
  static func readJournal(
    into snapshot: inout FileSnapshot, _ options: Persistence.FileOptions,
    movingCorruptAside: Bool
  ) throws(StoreError) {
    let journalPath = StoreJournal.path(for: options.path)
    guard let (data, stamp) = try DurableFile.read(journalPath, as: .journal) else { return }
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

  /// Brings what this store knows of the file up to date: reads the file when its stamp
  /// changed, and adds what other stores changed to `seen`.
  ///
  /// - Parameter movingCorruptAside: Whether a corrupt file may be moved aside (as the
  ///   options say); a watcher only reads.
  func absorbFile(
    into state: inout FileState, seen: inout StoreBackendChanges, movingCorruptAside: Bool
  ) throws(StoreError) {
    let stamp = DurableFile.stamp(path)
    if let stamp, stamp == state.stamp {
      let journalStamp = DurableFile.stamp(journalPath)
      if journalStamp == state.journal.stamp { return }
      // Only the journal changed: read what was appended since.
      if let journalStamp, try absorbJournal(into: &state, stamp: journalStamp, seen: &seen) {
        return
      }
    }
    guard let snapshot = try Self.readFile(options, movingCorruptAside: movingCorruptAside) else {
      // Deleted: the store keeps its values, and its next write recreates the file.
      state.stamp = nil
      state.fileVersion = nil
      state.generation = nil
      state.journal = JournalState()
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
    seen.merge(reportable(FileChanges(from: state.known, to: values)))
    state.known = values
    state.stamp = snapshot.stamp
    state.fileVersion = snapshot.version
    state.generation = snapshot.generation
    state.journal = snapshot.journal
  }

  /// `changes` as the store hears them: which keys a store of this process wrote.
  func reportable(_ changes: FileChanges) -> StoreBackendChanges {
    guard !changes.isEmpty else { return StoreBackendChanges() }
    return StoreBackendChanges(
      changed: changes.changed.mapValues(StoreBackendValue.init), removed: changes.removed,
      writtenInThisProcess: OpenStores.writtenHere(changes.changed, to: path))
  }

}
