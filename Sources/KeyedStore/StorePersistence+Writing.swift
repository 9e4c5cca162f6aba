import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Writing: the background write cycle, the transaction `update` and batches use, and the
// whole-file rewrite.
extension StorePersistence {

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

  /// Queues a background write: called by the stage that dirtied the first entry since
  /// the last write, so that a burst of stages costs one write.
  ///
  /// Background writes are paced to take at most about a tenth of the time: after a
  /// write that took *d*, the next background write waits until 9 *d* have passed, and
  /// every stage meanwhile joins it. A write of a millisecond (a small file, or a journal
  /// append) is made almost at once; a slow one (a disk that syncs slowly) waits longer,
  /// however often the store changes, instead of writing all the time.
  /// `flush()` and the exit flush are never delayed.
  @usableFromInline
  func requestWrite() {
    queue.async { [self] in writeWhenPaced() }
  }

  /// Runs on ``queue``: writes now if the pacing allows, or comes back when it does. The
  /// pacing is looked at here, after any write queued ahead has finished and recorded
  /// its duration, so that a stage made during a write waits its turn too.
  func writeWhenPaced() {
    let delay = pacing.withLock { $0.delay(at: .now) }
    guard delay <= .zero else {
      let (seconds, attoseconds) = delay.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      // Weak: a store released meanwhile has flushed as it closed.
      queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
        self?.writeWhenPaced()
      }
      return
    }
    let start = ContinuousClock.now
    // A failed background write keeps its values dirty (or, for a value that cannot be
    // encoded, its error): `flush()` retries and throws. The app hears it now.
    do throws(StoreError) {
      try write()
    } catch {
      publish(error)
    }
    let end = ContinuousClock.now
    pacing.withLock { $0.wrote(from: start, to: end) }
  }

  /// One write cycle, then the delivery of what other stores changed.
  ///
  /// The dirty values are taken while holding ``cycle``, so that a flush waits for a
  /// background write that took them first: it returns only once they are durable.
  ///
  /// - Parameters:
  ///   - closing: Whether this is the last write: after it, nothing is written.
  ///   - delivering: Whether to deliver what other stores changed; not at exit.
  ///   - lockTimeout: How long to wait for the file lock; the options' by default.
  func write(
    closing: Bool = false, delivering: Bool = true, lockTimeout: Duration? = nil
  ) throws(StoreError) {
    // Every value refused is published, each naming its key; a flush throws the first.
    defer { publishUnencodable() }
    try cycle.withLock { state throws(StoreError) in
      // Checked under the lock, so that no write queued before `close()` runs after it.
      guard !state.isClosed else { return }
      if closing { state.isClosed = true }
      // Encoded before taking the file lock, so that other writers wait less.
      guard let (pending, encoded) = takeDirty(&state) else { return }
      do throws(StoreError) {
        try fileLock.withExclusiveLock(timeout: lockTimeout ?? options.lockTimeout, for: path) {
          () throws(StoreError) in
          try merge(encoded, into: &state)
        }
      } catch {
        // Nothing was written: the values stay dirty, so that the next write retries.
        storage.withLock { $0.markDirtyAgain(pending) }
        throw error
      }
    }
    if delivering { deliverExternalChanges() }
  }

  /// Takes the dirty entries' values and encodes them; a value that cannot be encoded is
  /// left out, and its error kept for the next flush.
  ///
  /// - Returns: The entries taken and their encoded values, or `nil` when none is dirty.
  func takeDirty(_ state: inout CycleState) -> ([StoreEntry], [String: StoredJSON])? {
    let pending = storage.withLock { $0.takeDirty() }
    guard !pending.isEmpty else { return nil }
    var encoded: [String: StoredJSON] = [:]
    for (entry, value) in pending {
      do {
        encoded[entry.name] = try StoredJSON(encoding: value)
      } catch {
        let failure = StoreError.unencodableValue(key: entry.name, reason: describe(error))
        state.unreportedError = state.unreportedError ?? failure
        state.unpublished.append(failure)
      }
    }
    return (pending.map(\.0), encoded)
  }

  /// Commits a change against the file's current contents, as one step among every store
  /// and process that shares the file: holding the file lock, it reads the file if it
  /// changed, commits what other stores changed, runs `commit` on the store's state, and
  /// writes the file before releasing the lock. What `update(_:for:_:)` and batches use.
  ///
  /// When the file cannot be locked or read, or the store is closed, `commit` runs on the
  /// store's state alone and the write is left to the background; the failure is kept
  /// for the next flush. Call holding the delivery drain.
  ///
  /// - Parameter commit: Commits under the store's state lock; returns the outcome and
  ///   its delivery.
  /// - Returns: `commit`'s outcome, and the deliveries to run (other stores' changes
  ///   first).
  func transaction<Outcome>(_ commit: (inout StoreState) -> (Outcome, any Delivery)) -> (
    Outcome, [any Delivery]
  ) {
    let timestamp = ContinuousClock.now
    var inMemoryOnly = false
    var failure: StoreError?
    let result = cycle.withLock { state -> (Outcome, [any Delivery]) in
      if !state.isClosed {
        do throws(StoreError) {
          return try fileLock.withExclusiveLock(timeout: options.lockTimeout, for: path) {
            () throws(StoreError) -> (Outcome, [any Delivery]) in
            try absorbFile(into: &state, except: [:], movingCorruptAside: true)
            let result = storage.withLock { storeState in
              var deliveries = storeState.commitExternal(at: timestamp)
              let (outcome, delivery) = commit(&storeState)
              deliveries.append(delivery)
              return (outcome, deliveries)
            }
            // Written under the same lock hold: no other writer sees the file between.
            if let (pending, encoded) = takeDirty(&state) {
              do throws(StoreError) {
                try merge(encoded, into: &state)
              } catch {
                storage.withLock { $0.markDirtyAgain(pending) }
                state.unreportedError = state.unreportedError ?? error
                failure = error
              }
            }
            return result
          }
        } catch {
          state.unreportedError = state.unreportedError ?? error
          failure = error
        }
      }
      inMemoryOnly = true
      return storage.withLock { storeState in
        let (outcome, delivery) = commit(&storeState)
        return (outcome, [delivery])
      }
    }
    publishUnencodable()
    if inMemoryOnly { requestWrite() }
    if let failure { publish(failure) }
    return result
  }
  /// Sends a background failure to ``errors``; a read-only store's refusal to write only
  /// the first time, rather than after every stage.
  func publish(_ error: StoreError) {
    if isReadOnly {
      let isFirst = cycle.withLock { state in
        defer { state.reportedReadOnly = true }
        return !state.reportedReadOnly
      }
      guard isFirst else { return }
    }
    errors.send(reported(error))
  }

  /// Sends each value a write refused to ``errors``, once, with no lock held.
  func publishUnencodable() {
    let refused = cycle.withLock { state in
      defer { state.unpublished = [] }
      return state.unpublished
    }
    for failure in refused { errors.send(reported(failure)) }
  }
}
