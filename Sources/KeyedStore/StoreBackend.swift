/// Where a persisting ``Store`` keeps its `Codable` values beyond its memory: the
/// extension point that the store file and other backends (a database, say) conform to.
///
/// The store does everything typed: keys, decoding, observers, ``Mutation/origin``,
/// write coalescing and pacing, ``Store/errors``. A backend only moves JSON values
/// between the store and where they are kept, and reports what others wrote there:
///
/// - ``load()`` reads every value once, as the store opens.
/// - ``commit(_:timeout:seen:)`` writes a batch of changed values atomically and
///   durably: it is what a background write and ``Store/flush()`` call.
/// - ``commitExclusively(timeout:_:)`` runs a read-modify-write that no other store,
///   process or machine interleaves with: what ``Store/update(_:for:_:)`` and
///   ``Store/batch(_:)`` call.
/// - ``changes()`` returns what others committed since the backend last reported, and
///   ``watch(every:events:)`` says when to ask.
///
/// Pass one to ``Persistence/backend(_:)``:
///
///     let store = try Store(persistence: .backend(myBackend))
///
/// # Thread safety
/// The store calls a backend's methods one at a time (never two at once), on its own
/// background queue or on the thread that flushes or updates, and never while holding
/// its state lock. The ``StoreBackendEvents`` of ``watch(every:events:)`` may be called
/// from any thread, at any time, as often as the backend likes.
///
/// # Failures
/// A method that fails throws a ``StoreError`` whose text names the backend's
/// ``location`` and the reason, and never contains a value or a credential. The store
/// keeps the values it could not write and retries them at the next write; it publishes
/// what failed in the background on ``Store/errors``.
public protocol StoreBackend: AnyObject, Sendable {
  /// Where the values are kept, as ``Store/persistencePath`` and errors name it: a file's
  /// path, or a database and table (never with a password).
  var location: String { get }

  /// Whether this backend can only read: every commit throws then, and the store keeps
  /// its stages in memory (see ``Store/isReadOnly``).
  var isReadOnly: Bool { get }

  /// Reads every stored value, once, when the store opens. A later ``changes()``
  /// reports what changed after this read.
  ///
  /// - Returns: Every key's value, by key name.
  /// - Throws: A ``StoreError`` naming ``location``; the store does not open.
  func load() throws(StoreError) -> [String: StoreBackendValue]

  /// Writes `values` over what is stored, all of them or none, and returns once they are
  /// durable. Per key, the last writer wins.
  ///
  /// - Parameters:
  ///   - values: The changed values, by key name.
  ///   - timeout: How long to wait for other writers at most; `nil` for the backend's
  ///     own limit.
  ///   - seen: Gets what others committed since the backend last reported, as the
  ///     backend learns it on the way — also when the commit then fails, so that nothing
  ///     others wrote is missed.
  /// - Throws: A ``StoreError``; then nothing of `values` was written.
  func commit(
    _ values: [String: StoreBackendValue], timeout: Duration?, seen: inout StoreBackendChanges
  ) throws(StoreError)

  /// Runs one read-modify-write that no other writer interleaves with: brings in what
  /// others committed, hands it to `body`, and writes what `body` returns before any
  /// other writer may write.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for other writers at most; `nil` for the backend's
  ///     own limit.
  ///   - body: Gets what others committed since the backend last reported, and returns
  ///     the values to write. Called at most once.
  /// - Throws: A ``StoreError``: before `body` ran (nothing was read or written), or
  ///   after it (nothing of what it returned was written).
  func commitExclusively(
    timeout: Duration?, _ body: (StoreBackendChanges) -> [String: StoreBackendValue]
  ) throws(StoreError)

  /// What others committed since the backend last reported, each key once, with its
  /// latest value.
  ///
  /// - Throws: A ``StoreError`` when what is stored cannot be read now; the store keeps
  ///   its values, publishes the failure once, and asks again later.
  func changes() throws(StoreError) -> StoreBackendChanges

  /// Starts telling the store when others may have committed something (the store then
  /// calls ``changes()``, on its own queue) and what failed in the backend's own
  /// background work. Called once, after ``load()``.
  ///
  /// - Parameters:
  ///   - interval: How often the app asked the store to look at least (the
  ///     `changeCheckInterval` of its persistence); `nil` when the app looks only with
  ///     ``Store/refresh()``.
  ///   - events: Call ``StoreBackendEvents/changed()`` whenever there may be changes (on
  ///     a notification, after a reconnection, on a timer), and
  ///     ``StoreBackendEvents/failed(_:)`` for a background failure.
  func watch(every interval: Duration?, events: StoreBackendEvents)

  /// Stops watching and releases what the backend holds (connections, watchers, files).
  /// The store calls it once, after its last write.
  func close()
}

/// One key's value as a backend stores it: a JSON value (an object, array, string,
/// number, `true`, `false` or `null`).
public struct StoreBackendValue: Sendable, Equatable, CustomStringConvertible {
  let json: StoredJSON

  init(_ json: StoredJSON) {
    self.json = json
  }

  /// Reads a value from its JSON text, as a backend reads it back from where it is kept.
  ///
  /// - Parameters:
  ///   - jsonText: One JSON value, with optional whitespace around it.
  ///   - location: The backend's ``StoreBackend/location``, which an error names.
  /// - Throws: ``StoreError/corruptFile(path:reason:)`` naming `location` when the text is
  ///   not one JSON value.
  public init(jsonText: String, location: String) throws(StoreError) {
    var reader = JSONReader(Array(jsonText.utf8))
    do throws(JSONSyntaxError) {
      reader.skipWhitespace()
      json = try reader.readValue(depthLimit: StoredJSON.readableDepth)
      try reader.readEnd()
    } catch {
      throw .corruptFile(path: location, reason: "a stored value is not JSON: \(error)")
    }
  }

  /// The value as compact JSON text, as a backend writes it.
  public var jsonText: String {
    var writer = JSONWriter(style: .compact)
    // A value read from text or encoded by the store is always writable.
    try? writer.write(json)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The JSON text, for logs of a backend's own (a value may hold what the app keeps
  /// private: log it with care).
  public var description: String { jsonText }
}

/// What others committed to a backend: the keys they changed, with their latest values,
/// and the keys they removed.
public struct StoreBackendChanges: Sendable, Equatable {
  /// The latest value of each key others changed.
  public var changed: [String: StoreBackendValue]
  /// The keys others removed.
  public var removed: [String]
  /// Which of ``changed`` another store of this process wrote, so that their mutations
  /// say ``MutationOrigin/anotherStore``; the others say
  /// ``MutationOrigin/anotherProcess`` (another process, on this machine or another).
  public var writtenInThisProcess: Set<String>

  /// Changes to report.
  ///
  /// - Parameters:
  ///   - changed: The latest value of each key others changed.
  ///   - removed: The keys others removed.
  ///   - writtenInThisProcess: Which of `changed` another store of this process wrote.
  public init(
    changed: [String: StoreBackendValue] = [:], removed: [String] = [],
    writtenInThisProcess: Set<String> = []
  ) {
    self.changed = changed
    self.removed = removed
    self.writtenInThisProcess = writtenInThisProcess
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { changed.isEmpty && removed.isEmpty }

  /// Adds `later` to these changes: a key's later value replaces its earlier one.
  public mutating func merge(_ later: StoreBackendChanges) {
    for (name, value) in later.changed {
      changed[name] = value
      if later.writtenInThisProcess.contains(name) {
        writtenInThisProcess.insert(name)
      } else {
        writtenInThisProcess.remove(name)
      }
    }
    if !later.removed.isEmpty {
      let removedNow = Set(later.removed)
      for name in removedNow { changed[name] = nil }
      removed = Array(Set(removed).union(removedNow)).sorted()
    }
    for name in later.changed.keys { removed.removeAll { $0 == name } }
  }
}

/// What a ``StoreBackend`` tells the store that owns it, from any thread.
public struct StoreBackendEvents: Sendable {
  let changedHandler: @Sendable () -> Void
  let failedHandler: @Sendable (StoreError) -> Void

  /// Events that call `changed` and `failed`: how a test drives a backend alone.
  ///
  /// - Parameters:
  ///   - changed: Called by ``changed()``.
  ///   - failed: Called by ``failed(_:)``.
  public init(
    changed: @escaping @Sendable () -> Void, failed: @escaping @Sendable (StoreError) -> Void
  ) {
    changedHandler = changed
    failedHandler = failed
  }

  /// Says that others may have committed something: the store calls
  /// ``StoreBackend/changes()`` soon, on its own queue.
  public func changed() { changedHandler() }

  /// Reports a failure of the backend's own background work (a lost connection, a
  /// compaction that could not write): the store publishes it on ``Store/errors``.
  public func failed(_ error: StoreError) { failedHandler(error) }
}
