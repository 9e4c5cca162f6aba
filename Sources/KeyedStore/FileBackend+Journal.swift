import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The journal of a large store file: reading what other stores appended, appending this
// store's changes, and compacting the file (see the *Persisting app state* article).
extension FileBackend {
  /// Reads the records appended to the journal since this store last read or wrote it,
  /// when the file itself is unchanged, and notes what they changed.
  ///
  /// - Returns: Whether that sufficed; `false` when the journal is another one (or was
  ///   cut, or does not parse), and the file and journal must be read whole.
  func absorbJournal(
    into state: inout FileState, stamp: FileStamp, seen: inout StoreBackendChanges
  ) throws(StoreError) -> Bool {
    var offset = 0
    if let known = state.journal.stamp {
      guard known.device == stamp.device, known.inode == stamp.inode,
        stamp.size >= Int64(state.journal.end), state.journal.isLive
      else { return false }
      offset = state.journal.end
    }
    guard let (data, readStamp) = try DurableFile.read(journalPath, from: offset, as: .journal),
      readStamp.device == stamp.device, readStamp.inode == stamp.inode
    else { return false }
    let contents: StoreJournal.Contents
    do throws(StoreError) {
      contents = try StoreJournal.parse(
        data, from: offset, generation: state.generation, path: journalPath)
    } catch {
      return false
    }
    if offset == 0 {
      guard let generation = state.generation, contents.header?.generation == generation else {
        // Stale: nothing in it applies to this file.
        state.journal = JournalState(stamp: readStamp, end: contents.end, isLive: false)
        return true
      }
    }
    var changes = FileChanges()
    for record in contents.records {
      for (name, value) in record where state.known[name] != value {
        state.known[name] = value
        changes.changed[name] = value
      }
    }
    state.journal = JournalState(stamp: readStamp, end: contents.end, isLive: true)
    seen.merge(reportable(changes))
    return true
  }

  /// Puts `encoded` over the file's current values and replaces the file, unless it
  /// already says that. Holds the file lock.
  ///
  /// A file with a generation gets only the changed keys, appended to its journal as one
  /// line (so that a file holds a whole batch or none of it); any other file is
  /// rewritten whole.
  func merge(
    _ encoded: [String: StoredJSON], into state: inout FileState, seen: inout StoreBackendChanges
  ) throws(StoreError) {
    try absorbFile(into: &state, seen: &seen, movingCorruptAside: true)
    let version = options.schemaVersion
    var changed: [String: StoredJSON] = [:]
    for (name, value) in encoded where state.known[name] != value { changed[name] = value }
    if state.fileVersion == version, changed.isEmpty { return }  // the file says this
    if state.fileVersion == version, state.generation != nil {
      try append(changed, to: &state)
    } else {
      var merged = state.known
      merged.merge(changed) { _, new in new }
      try rewriteFile(with: merged, into: &state)
    }
    OpenStores.noteWritten(encoded, to: path)
    state.writes += 1
  }

  /// Appends `changed` to the journal as one line, starting the journal of the file's
  /// generation when there is none yet (or only a stale one), and queues a compaction
  /// once the journal has grown. Holds the file lock.
  func append(_ changed: [String: StoredJSON], to state: inout FileState)
    throws(StoreError)
  {
    guard let generation = state.generation else { return }
    let line: Data
    do {
      line = try StoreJournal.recordLine(changed)
    } catch {
      throw .writeFailed(path: journalPath, reason: describe(error))
    }
    var stamp: FileStamp?
    if state.journal.isLive, let known = state.journal.stamp {
      stamp = try DurableFile.append(
        journalPath, line, at: state.journal.end, inode: known, fault: options.writeFault?())
      if stamp != nil { state.journal.end += line.count }
    }
    if stamp == nil {
      var data: Data
      do {
        data = try StoreJournal.headerLine(generation: generation)
      } catch {
        throw .writeFailed(path: journalPath, reason: describe(error))
      }
      data.append(line)
      stamp = try DurableFile.replace(
        journalPath, with: data, modelledOn: path, as: .journal, fault: options.writeFault?())
      state.journal.end = data.count
      state.journal.isLive = true
    }
    state.journal.stamp = stamp
    state.known.merge(changed) { _, new in new }
    if needsCompaction(state), !state.isCompactionQueued {
      state.isCompactionQueued = true
      queue.async { [weak self] in self?.compact() }
    }
  }

  /// Rewrites the file whole with `values` (removing the journal), and notes it.
  func rewriteFile(with values: [String: StoredJSON], into state: inout FileState)
    throws(StoreError)
  {
    let (stamp, generation) = try Self.rewrite(values, options: options)
    state.stamp = stamp
    state.generation = generation
    state.journal = JournalState()
    state.known = values
    state.fileVersion = options.schemaVersion
  }

  /// Whether the journal has grown past ``Persistence/FileOptions/compactionRatio`` of
  /// the file.
  func needsCompaction(_ state: FileState) -> Bool {
    guard state.journal.isLive, let size = state.stamp?.size else { return false }
    return Double(state.journal.end) > Double(size) * options.compactionRatio
  }

  /// Rewrites the file with the journal's records in it, once the journal has grown: on
  /// ``queue``, so that no flush waits for it to start, holding the file lock. A failure
  /// leaves the file and journal as they were, and is published.
  func compact() {
    do throws(StoreError) {
      try state.withLock { state throws(StoreError) in
        state.isCompactionQueued = false
        guard !state.isClosed else { return }
        try fileLock.withExclusiveLock(timeout: options.lockTimeout, for: path) {
          () throws(StoreError) in
          var seen = StoreBackendChanges()
          defer { state.unreported.merge(seen) }
          try absorbFile(into: &state, seen: &seen, movingCorruptAside: true)
          guard state.fileVersion == options.schemaVersion, needsCompaction(state) else { return }
          try rewriteFile(with: state.known, into: &state)
          state.writes += 1
        }
      }
    } catch {
      events.withLock { $0 }?.failed(reported(error))
    }
    if !state.withLock({ $0.unreported.isEmpty }) { events.withLock { $0 }?.changed() }
  }
}
