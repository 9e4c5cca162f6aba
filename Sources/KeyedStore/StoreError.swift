import ReactiveCore

/// What went wrong with a ``Store``: a misused key, or a store file that could not be
/// read, migrated or written. Each case names the key or file, and its
/// ``description`` says what to do.
///
/// A failure never replaces the file on disk with an empty or partial store.
public enum StoreError: Error, Equatable, CustomStringConvertible {
  /// A value of the wrong type for a key, or a key name used with two value types.
  case typeMismatch(key: String, expected: String, actual: String)
  /// The file at `path` is not a store file: truncated, empty, or not the store's JSON.
  /// The file was left as it is.
  case corruptFile(path: String, reason: String)
  /// A directory, FIFO, socket or device — something that is not a regular file — is at
  /// `path`. Reported at once: the store never blocks opening it.
  case notAFile(path: String)
  /// The file at `path` exists but could not be opened or read.
  case unreadable(path: String, reason: String)
  /// The file at `path` was written by a newer schema version than this code knows.
  case newerVersion(path: String, found: Int, supported: Int)
  /// A migration step failed; the file at `path` was left at its old version.
  case migrationFailed(path: String, version: Int, step: String, reason: String)
  /// A value stored for `key` does not decode as the key's value type.
  case undecodableValue(key: String, type: String, path: String, reason: String)
  /// A value staged for `key` could not be encoded as JSON, so it was not written.
  case unencodableValue(key: String, reason: String)
  /// The disk holding `path` is full; the previous file is intact.
  case diskFull(path: String)
  /// Writing, syncing or locking the file at `path` failed; the previous file is intact.
  case writeFailed(path: String, reason: String)
  /// No default location for a store file could be found.
  case noDefaultLocation(reason: String)

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected, let actual):
      "Key \"\(key)\" holds \(expected), but was used with \(actual); nothing was staged. "
        + "Give each value type its own key name."
    case .corruptFile(let path, let reason) where Self.isBackendLocation(path):
      "What \(path) holds is not readable as a store (\(reason)); nothing was changed."
    case .writeFailed(let path, let reason) where Self.isBackendLocation(path):
      "Writing to \(path) failed (\(reason)); the values stay in memory, and the next write "
        + "or flush() retries them."
    case .newerVersion(let path, let found, let supported) where Self.isBackendLocation(path):
      "\(path) has schema version \(found), but this code knows versions up to "
        + "\(supported); nothing was changed. Run a newer build of the app."
    case .migrationFailed(let path, let version, let step, let reason)
    where Self.isBackendLocation(path):
      "Migrating \(path) to version \(version) failed at step \(step) (\(reason)); nothing "
        + "was changed. Fix the migration step and open again."
    case .corruptFile(let path, let reason):
      "\(Self.file(path)) is not readable as a store (\(reason)); it was left untouched. "
        + "Restore it from a backup, delete it, or open with `ifCorrupt: .moveAside` to move it "
        + "aside and start empty."
    case .notAFile(let path):
      "Something that is not a regular file (a directory, FIFO, socket or device) is at \(path). "
        + "Move it away or choose another path for the store."
    case .unreadable(let path, let reason):
      "\(Self.file(path)) could not be read (\(reason)). "
        + "Check its owner and permissions, and that every folder on the path exists and is a "
        + "folder."
    case .newerVersion(let path, let found, let supported):
      "\(Self.file(path)) has schema version \(found), but this code knows versions up "
        + "to \(supported); it was left untouched. Run a newer build of the app, or move the file "
        + "aside to start over."
    case .migrationFailed(let path, let version, let step, let reason):
      "Migrating \(Self.file(path, capitalized: false)) to version \(version) failed at step \(step) "
        + "(\(reason)); the file was left at its old version. Fix the migration step and open again."
    case .undecodableValue(let key, let type, let path, let reason):
      "The value stored for key \"\(key)\" in \(path) does not decode as \(type) (\(reason)); "
        + "it is kept in the file until the key is staged again. Add a migration step that "
        + "transforms it, or stage a new value."
    case .unencodableValue(let key, let reason):
      "The value of key \"\(key)\" could not be encoded as JSON (\(reason)), so it was not "
        + "written. Make its Codable conformance encode, or declare the key `persisted: false`."
    case .diskFull(let path):
      "The disk holding \(path) is full; the previous file is intact and the values stay in "
        + "memory. Free some space, then call flush() again."
    case .writeFailed(let path, let reason):
      "Writing \(Self.file(path, capitalized: false)) failed (\(reason)); the previous file is "
        + "intact and the values stay in memory. Check the folder's and the file's owner and "
        + "permissions, then call flush() again."
    case .noDefaultLocation(let reason):
      "No default location for a store file (\(reason)). Set HOME or XDG_CONFIG_HOME, or pass "
        + "an explicit path to Persistence.file(path:)."
    }
  }
}

extension StoreError {
  /// Which of a store's files `path` is, and where: "The store's journal at …", "The
  /// store's lock file at …" or "The store file at …", so that an error about the lock
  /// file does not call it the store file.
  /// The locations of the backends other than files that stores of this process opened:
  /// errors naming one speak of it, not of a file.
  static let backendLocations = LockedBox<Set<String>>([])

  static func isBackendLocation(_ location: String) -> Bool {
    backendLocations.withLock { $0.contains(location) }
  }

  static func file(_ path: String, capitalized: Bool = true) -> String {
    let role: FileTrust.Role =
      path.hasSuffix(".journal") ? .journal : path.hasSuffix(".lock") ? .lockFile : .storeFile
    let name = "\(role.rawValue) at \(path)"
    return capitalized ? name.prefix(1).uppercased() + name.dropFirst() : name
  }

  /// This error naming `replacement` where it names `path` (or a file beside it whose
  /// name starts with `path`): a store reports the path the app gave, not the real path
  /// it resolved.
  func replacingPath(_ path: String, with replacement: String) -> StoreError {
    guard path != replacement else { return self }
    func swap(_ named: String) -> String {
      named.hasPrefix(path) ? replacement + named.dropFirst(path.count) : named
    }
    switch self {
    case .typeMismatch, .unencodableValue, .noDefaultLocation: return self
    case .corruptFile(let named, let reason): return .corruptFile(path: swap(named), reason: reason)
    case .notAFile(let named): return .notAFile(path: swap(named))
    case .unreadable(let named, let reason): return .unreadable(path: swap(named), reason: reason)
    case .newerVersion(let named, let found, let supported):
      return .newerVersion(path: swap(named), found: found, supported: supported)
    case .migrationFailed(let named, let version, let step, let reason):
      return .migrationFailed(path: swap(named), version: version, step: step, reason: reason)
    case .undecodableValue(let key, let type, let named, let reason):
      return .undecodableValue(key: key, type: type, path: swap(named), reason: reason)
    case .diskFull(let named): return .diskFull(path: swap(named))
    case .writeFailed(let named, let reason): return .writeFailed(path: swap(named), reason: reason)
    }
  }
}
