/// Where a ``Store`` keeps its values: in memory only, or also in a JSON file that
/// survives the process.
///
///     let store = try Store(persistence: .file(path: "/tmp/app-state.json"))
///     store.stage(27, for: .someInt)
///     try store.flush()   // durable now
///
/// Every key whose `Value` is `Codable` is written to the file, unless declared with
/// `persisted: false`; other keys live in memory only. See <doc:PersistingState>.
public struct Persistence: Sendable {
  enum Kind: Sendable {
    case memory
    case file(FileOptions)
    case backend(any StoreBackend, changeCheckInterval: Duration?)
  }

  /// The settings of a file-backed store.
  struct FileOptions: Sendable {
    var path: String
    var migrations: [StoreMigration]
    var ifCorrupt: CorruptFileHandling
    var changeCheckInterval: Duration?
    var writeFault: (@Sendable () -> Int32?)?
    /// How long a read or write waits for another store's or process's file lock.
    var lockTimeout: Duration = .seconds(10)
    /// The path as the app gave it, which errors name; ``path`` is the resolved real
    /// path once the store opened.
    var givenPath: String?
    /// The size from which the store file keeps a journal (see ``StoreJournal``): a
    /// smaller file is rewritten whole on each write, which costs little.
    var journalThreshold = 64 * 1_024
    /// How large the journal may grow, as a fraction of the store file, before the file
    /// is rewritten with the journal's records in it (in the background).
    var compactionRatio = 0.25

    /// The schema version this code writes: that of the last migration, or 1.
    var schemaVersion: Int { migrations.map(\.version).max().map { max($0, 1) } ?? 1 }
  }

  let kind: Kind

  /// Values live in memory only and are gone when the process ends: what `Store()`
  /// uses, and what tests want.
  public static let memory = Persistence(kind: .memory)

  /// Values of `Codable` keys are also kept in the JSON file at `path`.
  ///
  ///     let store = try Store(persistence: .file(path: path, migrations: [
  ///         StoreMigration(to: 2, steps: [.renameKey("name", to: "userName")]),
  ///     ]))
  ///
  /// - Parameters:
  ///   - path: The store file. Missing folders are created; a missing file starts empty.
  ///   - migrations: How to bring a file of an older schema version up to date. The
  ///     store's schema version is the highest migration's ``StoreMigration/version``
  ///     (1 without migrations).
  ///   - ifCorrupt: What to do when the file is not a readable store file.
  ///   - changeCheckInterval: How often to look for changes that another store (in this
  ///     process or another) wrote to the file; `nil` only looks when you call
  ///     ``Store/refresh()``. On Linux the store also watches the file's folder with
  ///     inotify and looks at once when the file changes; it then polls only as a
  ///     backstop, every `changeCheckInterval` × 8 (at least every 2 seconds).
  /// - Returns: The persistence to pass to ``Store/init(persistence:)``.
  public static func file(
    path: String, migrations: [StoreMigration] = [],
    ifCorrupt: CorruptFileHandling = .throwError,
    changeCheckInterval: Duration? = .milliseconds(250)
  ) -> Persistence {
    Persistence(
      kind: .file(
        FileOptions(
          path: path, migrations: migrations, ifCorrupt: ifCorrupt,
          changeCheckInterval: changeCheckInterval, writeFault: nil)))
  }

  /// Values of `Codable` keys are also kept in the JSON file at `path`, waiting at most
  /// `lockTimeout` for another store or process that holds the file's lock.
  ///
  ///     let store = try Store(persistence: .file(path: path, lockTimeout: .seconds(2)))
  ///
  /// - Parameters:
  ///   - path: The store file. Missing folders are created (readable by this user only);
  ///     a missing file starts empty. The path is resolved once, when the store opens:
  ///     a relative path against the working folder, a symbolic link to its target.
  ///   - migrations: As in ``file(path:migrations:ifCorrupt:changeCheckInterval:)``.
  ///   - ifCorrupt: What to do when the file is not a readable store file.
  ///   - changeCheckInterval: As in ``file(path:migrations:ifCorrupt:changeCheckInterval:)``.
  ///   - lockTimeout: How long opening, a write or an update waits for the file's lock
  ///     (10 seconds with the other overload). Past it, they fail with
  ///     ``StoreError/writeFailed(path:reason:)`` naming the file and its lock file.
  /// - Returns: The persistence to pass to ``Store/init(persistence:)``.
  public static func file(
    path: String, migrations: [StoreMigration] = [],
    ifCorrupt: CorruptFileHandling = .throwError,
    changeCheckInterval: Duration? = .milliseconds(250), lockTimeout: Duration
  ) -> Persistence {
    Persistence(
      kind: .file(
        FileOptions(
          path: path, migrations: migrations, ifCorrupt: ifCorrupt,
          changeCheckInterval: changeCheckInterval, writeFault: nil, lockTimeout: lockTimeout)))
  }

  /// Values of `Codable` keys are also kept by `backend`: a database that many processes
  /// and machines share, say (see <doc:BeyondOneMachine>).
  ///
  ///     let store = try Store(persistence: .backend(myBackend))
  ///
  /// Typed keys, observers, ``Mutation/origin``, ``Store/update(_:for:_:)``, batches and
  /// ``Store/errors`` work as they do with a file. Give each store its own backend
  /// instance: a backend serves one store.
  ///
  /// - Parameters:
  ///   - backend: Where the values are kept.
  ///   - changeCheckInterval: How often, at least, the store asks the backend for others'
  ///     changes; the backend may also tell it at once (``StoreBackendEvents/changed()``).
  ///     `nil` looks only when you call ``Store/refresh()`` or the backend tells it.
  /// - Returns: The persistence to pass to ``Store/init(persistence:)``.
  public static func backend(
    _ backend: some StoreBackend, changeCheckInterval: Duration? = .milliseconds(250)
  ) -> Persistence {
    Persistence(kind: .backend(backend, changeCheckInterval: changeCheckInterval))
  }

  /// The store file's path, or `nil` in memory.
  public var path: String? {
    guard case .file(let options) = kind else { return nil }
    return options.path
  }

  /// A test hook: keeps a journal from a store file of `threshold` bytes (64 KiB by
  /// default), and compacts it once it reaches `compactionRatio` × the store file's size
  /// (a quarter by default).
  package func journaling(fromFileSize threshold: Int, compactionRatio: Double = 0.25)
    -> Persistence
  {
    guard case .file(var options) = kind else { return self }
    options.journalThreshold = threshold
    options.compactionRatio = compactionRatio
    return Persistence(kind: .file(options))
  }

  /// A test hook: makes every file write fail with the `errno` it returns (`ENOSPC` for
  /// a full disk), or succeed when it returns `nil`.
  package func failingWrites(with fault: @escaping @Sendable () -> Int32?) -> Persistence {
    guard case .file(var options) = kind else { return self }
    options.writeFault = fault
    return Persistence(kind: .file(options))
  }
}

/// What a file-backed store does when its file is not a readable store file (truncated,
/// garbage, another program's JSON).
public enum CorruptFileHandling: Sendable, Equatable {
  /// Opening throws ``StoreError/corruptFile(path:reason:)`` and leaves the file as it
  /// is: the safe default, so that nothing is lost.
  case throwError
  /// The file is renamed to `<name>.corrupt-<milliseconds since 1970>` beside it, and
  /// the store starts empty: for apps that prefer to run.
  case moveAside
}
