import Dispatch
import ReactiveCore

extension Store {
  /// Creates a store that keeps its `Codable` values in a file, and runs delayed stages
  /// on a global dispatch queue.
  ///
  ///     let store = try Store(persistence: .file(path: path))
  ///
  /// - Parameter persistence: ``Persistence/memory``, or a file.
  /// - Throws: A ``StoreError`` naming the file when it cannot be read, is corrupt, is
  ///   of a newer schema version, or cannot be migrated; the file is left as it was.
  public convenience init(persistence: Persistence) throws(StoreError) {
    try self.init(scheduler: DispatchQueue.global(), persistence: persistence)
  }

  /// Creates a store that keeps its `Codable` values in a file, and runs delayed stages
  /// on `scheduler`.
  ///
  /// Opening reads the file and runs any migrations before anything is read; each key's
  /// stored value is decoded on the key's first typed access (read, observe, stage).
  ///
  /// - Parameters:
  ///   - scheduler: Where ``stage(_:for:after:)`` schedules its work.
  ///   - persistence: ``Persistence/memory``, or a file.
  /// - Throws: A ``StoreError`` naming the file; the file is left as it was.
  public convenience init<S: Scheduler & Sendable>(scheduler: S, persistence: Persistence)
    throws(StoreError)
  {
    let state = StoreStorage()
    let deliveries = DeliveryDrain()
    var engine: StorePersistence?
    switch persistence.kind {
    case .memory:
      break
    case .file(let options):
      engine = try StorePersistence.open(options, storage: state, deliveries: deliveries)
    case .backend(let backend, let changeCheckInterval):
      engine = try StorePersistence.open(
        backend, changeCheckInterval: changeCheckInterval, storage: state,
        deliveries: deliveries)
    }
    self.init(scheduler: scheduler, state: state, deliveries: deliveries, persistence: engine)
  }

  /// Returns once every value committed before the call is durable in the store's file:
  /// written to a temporary file, synced, renamed over the old file, and the folder
  /// synced — or, for a file of 64 KiB or more, the changed keys appended to the file's
  /// journal and the journal synced, which costs what changed rather than the whole file
  /// (see <doc:PersistingState>). Does nothing in memory.
  ///
  /// Writes happen in the background anyway, coalesced, and paced to take at most about a
  /// tenth of the time: after a background write that took *d*, the next waits until
  /// 9 *d* have passed (10 seconds at most), so a file that changes constantly is not
  /// written continuously. Call this where losing the last
  /// moments of state matters — before the process exits, say (a normal exit flushes
  /// every open store for you).
  ///
  /// - Throws: ``StoreError/diskFull(path:)``, ``StoreError/writeFailed(path:reason:)``,
  ///   ``StoreError/unencodableValue(key:reason:)``, or an error reading the file back
  ///   before merging. The previous file is intact, the values stay in memory, and the
  ///   next flush retries them. It also throws what failed in the background since the
  ///   last flush and still matters: a value that could not be encoded, an update that
  ///   could not lock the file (once each), and a change check that cannot read the file
  ///   (until one can). A failed background write is retried here, so flush throws it
  ///   exactly when it still fails. Every such failure was also sent to ``errors``.
  public func flush() throws(StoreError) {
    try persistence?.flush()
  }

  /// Flushes, then stops writing and watching the file: later stages live in memory
  /// only. Releasing the store closes it as well (ignoring errors).
  ///
  /// - Throws: What ``flush()`` throws.
  public func close() throws(StoreError) {
    try persistence?.close()
  }

  /// Reads the file now, if it changed, and delivers what other stores (in this process
  /// or another) wrote as ordinary mutations. The store also does this on its own,
  /// every `changeCheckInterval`. Does nothing in memory.
  ///
  /// - Throws: A ``StoreError`` when the file changed into something unreadable; the
  ///   store's values are left as they are.
  public func refresh() throws(StoreError) {
    try persistence?.checkForChanges()
  }

  /// The current value of a key, like ``value(for:)``, but throwing when the file holds
  /// a value for it that does not decode as `Value` (which ``value(for:)`` reads as
  /// `nil`).
  ///
  /// - Parameter key: The key to read.
  /// - Returns: The value, or `nil` if there is none.
  /// - Throws: ``StoreError/undecodableValue(key:type:path:reason:)``.
  public func checkedValue<Value: Sendable>(for key: StoreKey<Value>) throws(StoreError)
    -> Value?
  {
    let (value, error) = state.withLock { state in
      (state.entryForReading(key)?.value, state.undecodable[key.name])
    }
    if let error { throw error }
    return value
  }

  /// Failures the app would not hear of otherwise: a background write that failed (a
  /// full disk, say), a change check that found the file unreadable, an update that
  /// could not lock the file, and the final write of a store being released.
  ///
  ///     store.errors
  ///         .sink { error in print("Settings are not being saved: \(error)") }
  ///         .store(in: &cancellables)
  ///
  /// Each failure is sent once, on the thread where it happened (usually the store's
  /// background queue), with no lock of the store held. The values stay in memory, and
  /// the store retries a failed write on the next stage or ``flush()``. A failed change
  /// check is sent when it starts, not again while it lasts. An in-memory store sends
  /// nothing.
  public var errors: AnyPublisher<StoreError, Never> {
    guard let persistence else { return Empty(completeImmediately: false).eraseToAnyPublisher() }
    return persistence.errors.eraseToAnyPublisher()
  }

  /// Whether this store can only read its file: this user may read the store's folder
  /// but not write it (a read-only mount, a folder of another user's that lets others
  /// read, a `chmod a-w`), and no lock file could be opened for writing. `false` in
  /// memory.
  ///
  /// Such a store reads the file, watches it and delivers other processes' changes as
  /// any store does; stages change its values in memory only, and ``flush()`` throws
  /// ``StoreError/writeFailed(path:reason:)`` saying the store is read-only (also sent to
  /// ``errors``, once).
  public var isReadOnly: Bool { persistence?.isReadOnly ?? false }

  /// Called when the write that a normal exit makes for each open store fails (a full
  /// disk, a lock another process holds past the exit's 2-second wait): the values
  /// staged since the last write are lost, and the process is ending, so nothing could
  /// throw. `nil` by default; the failure is written to standard error (naming the file
  /// and the reason, never a value) and sent to the store's ``errors`` whether or not a
  /// handler is set.
  ///
  ///     Store.exitFlushFailureHandler = { error in log.critical("settings lost: \(error)") }
  ///
  /// It runs inside the process's `atexit` handlers, on the exiting thread: keep it
  /// short, and do not start work that needs other threads.
  public static var exitFlushFailureHandler: (@Sendable (StoreError) -> Void)? {
    get { OpenStores.exitFailureHandler.withLock { $0 } }
    set { OpenStores.exitFailureHandler.withLock { $0 = newValue } }
  }

  /// The store file's path as given to ``Persistence/file(path:migrations:ifCorrupt:changeCheckInterval:)``,
  /// or `nil` in memory. The store reads and writes the file at the path this resolved to
  /// when it opened (see <doc:PersistingState>).
  public var persistencePath: String? { persistence?.givenPath }

  /// How many times this store wrote its file (replaced it, or appended to its journal):
  /// for tests and benchmarks of write coalescing, which import KeyedStore with
  /// `@_spi(Testing)`.
  @_spi(Testing) public var persistedWriteCount: Int { persistence?.writeCount ?? 0 }
}
