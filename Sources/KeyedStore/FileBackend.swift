import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The store file: the backend of ``Persistence/file(path:migrations:ifCorrupt:changeCheckInterval:)``.
///
/// Every commit holds the file lock, brings in what changed in the file, merges the
/// store's values over it (per key, the last writer wins) and writes: a small file is
/// replaced atomically; a large one gets the changed keys appended to its journal
/// (``StoreJournal``), and is rewritten with the journal in it, in the background, once
/// the journal has grown.
///
/// # Thread safety
/// `state` guards what the backend believes the file holds; it is held across file I/O
/// (the store calls one method at a time, and the compaction waits its turn). The file
/// lock is taken inside it, so the order is `state`, then the file lock.
final class FileBackend: StoreBackend {
  let options: Persistence.FileOptions
  let fileLock: FileLock
  /// Runs compactions, the folder watcher and the backstop timer.
  let queue = DispatchQueue(label: "Ripple.KeyedStore.file", qos: .utility)
  let state: LockedBox<FileState>
  /// What the store that owns this backend listens to; set by ``watch(every:events:)``.
  let events = LockedBox<StoreBackendEvents?>(nil)

  /// What the backend knows of the file, guarded by ``state``.
  struct FileState {
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
    /// Others' changes a compaction read, for the next call to report.
    var unreported = StoreBackendChanges()
    /// Whether a compaction is queued.
    var isCompactionQueued = false
    var writes = 0
    var isClosed = false
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
  var location: String { options.givenPath ?? options.path }
  var isReadOnly: Bool { fileLock.isReadOnly }
  /// How many times this backend wrote its file: replaced it, or appended to its journal.
  var writeCount: Int { state.withLock { $0.writes } }

  init(options: Persistence.FileOptions, fileLock: FileLock, snapshot: FileSnapshot?) {
    self.options = options
    self.fileLock = fileLock
    state = LockedBox(
      FileState(
        known: snapshot?.values ?? [:], stamp: snapshot?.stamp, fileVersion: snapshot?.version,
        generation: snapshot?.generation, journal: snapshot?.journal ?? JournalState()))
  }

  deinit {
    close()
  }

  /// `error` naming the path the app gave instead of the resolved one.
  func reported(_ error: StoreError) -> StoreError {
    error.replacingPath(path, with: location)
  }

  /// Runs `body`, reporting what it throws with the path the app gave.
  func reporting<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
    do throws(StoreError) {
      return try body()
    } catch {
      throw reported(error)
    }
  }

  func load() throws(StoreError) -> [String: StoreBackendValue] {
    state.withLock { $0.known.mapValues(StoreBackendValue.init) }
  }

  func commit(
    _ values: [String: StoreBackendValue], timeout: Duration?, seen: inout StoreBackendChanges
  ) throws(StoreError) {
    try reporting { () throws(StoreError) in
      try state.withLock { state throws(StoreError) in
        seen.merge(state.unreported)
        state.unreported = StoreBackendChanges()
        // The store's exit write passes a shorter wait than the options may give.
        let wait = timeout.map { min($0, options.lockTimeout) } ?? options.lockTimeout
        try fileLock.withExclusiveLock(timeout: wait, for: path) {
          () throws(StoreError) in
          try merge(values.mapValues(\.json), into: &state, seen: &seen)
        }
      }
    }
  }

  func commitExclusively(
    timeout: Duration?, _ body: (StoreBackendChanges) -> [String: StoreBackendValue]
  ) throws(StoreError) {
    try reporting { () throws(StoreError) in
      try state.withLock { state throws(StoreError) in
        try fileLock.withExclusiveLock(timeout: timeout ?? options.lockTimeout, for: path) {
          () throws(StoreError) in
          var seen = state.unreported
          try absorbFile(into: &state, seen: &seen, movingCorruptAside: true)
          state.unreported = StoreBackendChanges()
          let values = body(seen)
          guard !values.isEmpty else { return }
          // Written under the same lock hold: no other writer sees the file between.
          var again = StoreBackendChanges()
          defer { state.unreported.merge(again) }
          try merge(values.mapValues(\.json), into: &state, seen: &again)
        }
      }
    }
  }

  func changes() throws(StoreError) -> StoreBackendChanges {
    try reporting { () throws(StoreError) -> StoreBackendChanges in
      try state.withLock { state throws(StoreError) -> StoreBackendChanges in
        var seen = state.unreported
        guard !state.isClosed else { return seen }
        // Another store's file is read, never moved aside: it may be mid-migration.
        try absorbFile(into: &state, seen: &seen, movingCorruptAside: false)
        state.unreported = StoreBackendChanges()
        return seen
      }
    }
  }

  func close() {
    let timer = state.withLock { state in
      state.isClosed = true
      defer { state.timer = nil }
      return state.timer
    }
    timer?.cancel()
    #if canImport(Glibc)
      let watcher = state.withLock { state in
        defer { state.folderWatcher = nil }
        return state.folderWatcher
      }
      watcher?.cancel()
    #endif
  }
}
