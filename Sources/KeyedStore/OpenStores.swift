import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every open file-backed store in the process, held weakly, so that a normal exit —
/// returning from `main`, or calling `exit()` — writes what they committed.
///
/// The first store that opens a file installs one `atexit` handler. It flushes each store
/// still open, bounded: it waits at most ``exitLockTimeout`` for another process's file
/// lock, and delivers nothing to observers. A store it flushed is closed, so that no
/// background write starts a temporary file that the exiting process would abandon.
///
/// # Thread safety
/// `stores` guards the table; the handler copies the live stores out and flushes them
/// with no lock of its own held.
enum OpenStores {
  /// How long the exit handler waits for a file lock that another process holds.
  static let exitLockTimeout: Duration = .seconds(2)

  private struct Entry {
    weak var persistence: StorePersistence?
  }

  private static let stores = LockedBox<[ObjectIdentifier: Entry]>([:])

  /// Installs the `atexit` handler, once per process.
  private static let handlerInstalled: Bool = {
    atexit { OpenStores.flushAll() }
    return true
  }()

  /// Adds an opened store, for the exit handler to flush.
  static func add(_ persistence: StorePersistence) {
    _ = handlerInstalled
    stores.withLock { $0[ObjectIdentifier(persistence)] = Entry(persistence: persistence) }
  }

  /// Removes a closed store.
  static func remove(_ persistence: StorePersistence) {
    let id = ObjectIdentifier(persistence)
    // The entry's weak reference is released outside the lock.
    let removed = stores.withLock { $0.removeValue(forKey: id) }
    _ = removed
  }

  /// The value each key last had in a write by a store of this process, by real file
  /// path: what tells another store's change from another process's.
  private static let written = LockedBox<[String: [String: StoredJSON]]>([:])

  /// Notes the values a store of this process wrote to the file at `path`.
  static func noteWritten(_ values: [String: StoredJSON], to path: String) {
    guard !values.isEmpty else { return }
    written.withLock { written in
      written[path, default: [:]].merge(values) { _, new in new }
    }
  }

  /// Which of `changes` a store of this process wrote (the key's last value written here
  /// is that value); the others came from another process.
  static func writtenHere(_ changes: [String: StoredJSON], to path: String) -> Set<String> {
    written.withLock { written in
      guard let ours = written[path] else { return [] }
      return Set(changes.compactMap { name, value in ours[name] == value ? name : nil })
    }
  }

  /// What ``Store/exitFlushFailureHandler`` holds.
  static let exitFailureHandler = LockedBox<(@Sendable (StoreError) -> Void)?>(nil)

  /// Reports a store's failed write at exit: on standard error, where a person running
  /// the program sees it even when the app set no handler, then to the app's handler.
  /// The text names the file and the reason, never a value.
  static func reportExitFailure(_ error: StoreError) {
    let line = "KeyedStore: values staged before exit were not saved. \(error)\n"
    let bytes = Array(line.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      written += count
    }
    let handler = exitFailureHandler.withLock { $0 }
    handler?(error)
  }

  /// Writes and closes every open store: what the exit handler runs.
  static func flushAll() {
    let open = stores.withLock { stores in
      defer { stores.removeAll() }
      return stores.values.compactMap(\.persistence)
    }
    for persistence in open { persistence.closeAtExit() }
  }
}
