import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps a store's `Codable` values in its backend (the store file, or any
/// ``StoreBackend``): writes them in the background, coalesced, and brings in what other
/// stores wrote.
///
/// A stage only marks its entry dirty (under the store's lock) and, for the first dirty
/// entry since the last write, queues a write on ``queue``; everything else happens off
/// the staging thread. A write cycle takes the dirty entries' values, encodes them, and
/// commits them to the backend, which brings in what others changed on the way (per key,
/// the last writer wins). Values another store wrote meanwhile are delivered to this
/// store's observers as ordinary mutations.
///
/// # Thread safety
/// `cycle` guards the write cycle; it is held across the backend's calls (so the backend
/// sees one call at a time) but never while waiting for the store's lock or delivery
/// drain (`flush()` may run inside an observer, which holds the drain), so the lock order
/// is drain, then `cycle`, then the backend's own locks, then the store's state lock.
@usableFromInline
final class StorePersistence: Sendable {
  let backend: any StoreBackend
  let storage: StoreStorage
  let deliveries: DeliveryDrain
  /// Runs background writes and change checks, one at a time.
  let queue = DispatchQueue(label: "Ripple.KeyedStore.persistence", qos: .utility)
  /// The write cycle's lock and what it guards.
  let cycle = LockedBox(CycleState())
  /// When the next background write may start (see ``requestWrite()``).
  let pacing = LockedBox(WritePacing())
  /// Failures of background writes, change checks, updates and the final write: what
  /// ``Store/errors`` publishes. Sent to with no lock of the store held.
  let errors = PassthroughSubject<StoreError, Never>()

  /// What a write cycle knows, guarded by ``cycle``.
  struct CycleState {
    /// How many commits this store made (for backends that do not count their writes).
    var commits = 0
    var isClosed = false
    /// Why the last change check failed, while that stands: published once, and thrown
    /// by every flush until a check reads the backend again.
    var watchFailure: StoreError?
    /// A value that could not be encoded in a background write, for the next flush to
    /// report: that value is not retried, so its error must not be lost.
    var unreportedError: StoreError?
    /// Values a write refused (they cannot be encoded), to publish once the write ends.
    var unpublished: [StoreError] = []
    /// Whether a read-only store has published that it cannot write.
    var reportedReadOnly = false
    /// Why the last background write failed, while that stands: what a retry after the
    /// backend answers again does not publish twice.
    var failedBackgroundWrite: StoreError?
  }

  /// Where the backend keeps the values, as the app named it: what errors and
  /// ``Store/persistencePath`` say.
  var givenPath: String { backend.location }

  private init(backend: any StoreBackend, storage: StoreStorage, deliveries: DeliveryDrain) {
    self.backend = backend
    self.storage = storage
    self.deliveries = deliveries
  }

  deinit {
    backend.close()
    OpenStores.remove(self)
  }

  /// Opens the store file: reads it, migrates it, and hands its values to `storage`.
  ///
  /// - Throws: A ``StoreError`` naming the file; the file is left as it was.
  static func open(
    _ options: Persistence.FileOptions, storage: StoreStorage, deliveries: DeliveryDrain
  ) throws(StoreError) -> StorePersistence {
    try open(
      FileBackend.open(options), changeCheckInterval: options.changeCheckInterval,
      storage: storage, deliveries: deliveries)
  }

  /// Loads the backend's values and hands them to `storage`, to be decoded on each key's
  /// first typed access, then starts watching for others' changes.
  ///
  /// - Throws: What the backend's ``StoreBackend/load()`` throws.
  static func open(
    _ backend: any StoreBackend, changeCheckInterval: Duration?, storage: StoreStorage,
    deliveries: DeliveryDrain
  ) throws(StoreError) -> StorePersistence {
    if !(backend is FileBackend) {
      _ = StoreError.backendLocations.withLock { $0.insert(backend.location) }
    }
    let values = try backend.load()
    let persistence = StorePersistence(backend: backend, storage: storage, deliveries: deliveries)
    storage.withLock { state in
      state.filePath = backend.location
      state.stored = values.mapValues(\.json)
      // The subject and queue, not the persistence: no cycle through the storage, and no
      // weak reference (whose side table LeakSanitizer cannot trace at exit).
      state.reportUndecodable = { [errors = persistence.errors, queue = persistence.queue] error in
        queue.async { errors.send(error) }
      }
    }
    backend.watch(
      every: changeCheckInterval,
      events: StoreBackendEvents(
        changed: { [weak persistence] in
          persistence?.queue.async { [weak persistence] in persistence?.checkInBackground() }
        },
        failed: { [errors = persistence.errors] error in errors.send(error) }))
    OpenStores.add(persistence)
    return persistence
  }

  /// Whether this store can only write nothing: its backend is read-only. Every write
  /// then fails with ``StoreError/writeFailed(path:reason:)``.
  var isReadOnly: Bool { backend.isReadOnly }

  /// Writes everything committed before this call, and returns once it is durable.
  func flush() throws(StoreError) {
    try write()
    let unreported = cycle.withLock { state in
      defer { state.unreportedError = nil }
      return state.unreportedError ?? state.watchFailure
    }
    if let unreported { throw unreported }
  }

  /// Flushes, then stops writing and watching: later stages stay in memory.
  func close() throws(StoreError) {
    OpenStores.remove(self)
    defer { backend.close() }
    try write(closing: true)
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
  /// ``OpenStores/exitLockTimeout`` for the file lock and delivers nothing to observers.
  ///
  /// A failure cannot be thrown to anyone: it is written to standard error (the file and
  /// the reason, never a value), handed to ``Store/exitFlushFailureHandler``, and sent to
  /// ``errors``, so that values lost at exit are never lost without a word.
  func closeAtExit() {
    defer { backend.close() }
    do throws(StoreError) {
      try write(closing: true, delivering: false, lockTimeout: OpenStores.exitLockTimeout)
    } catch {
      OpenStores.reportExitFailure(error)
      errors.send(error)
    }
  }

  /// How many times this store wrote its file: replaced it, or appended to its journal.
  var writeCount: Int {
    if let file = backend as? FileBackend { return file.writeCount }
    return cycle.withLock { $0.commits }
  }
}
