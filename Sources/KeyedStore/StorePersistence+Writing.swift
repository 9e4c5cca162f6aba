import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Writing: the background write cycle, and the transaction `update` and batches use.
extension StorePersistence {

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
  ///
  /// - Parameter retrying: Whether this retries a failed write because the backend
  ///   reported news (see ``retryFailedWrite()``): the same failure again is not
  ///   published twice.
  func writeWhenPaced(retrying: Bool = false) {
    let delay = pacing.withLock { $0.delay(at: .now) }
    guard delay <= .zero else {
      let (seconds, attoseconds) = delay.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      // Weak: a store released meanwhile has flushed as it closed.
      queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
        self?.writeWhenPaced(retrying: retrying)
      }
      return
    }
    let start = ContinuousClock.now
    // A failed background write keeps its values dirty (or, for a value that cannot be
    // encoded, its error): `flush()` retries and throws. The app hears it now.
    do throws(StoreError) {
      try write()
      cycle.withLock { $0.failedBackgroundWrite = nil }
    } catch {
      let isNew = cycle.withLock { state in
        defer { state.failedBackgroundWrite = error }
        return !retrying || state.failedBackgroundWrite != error
      }
      if isNew { publish(error) }
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
      // Encoded before the backend is called, so that other writers wait less.
      guard let (pending, encoded) = takeDirty(&state) else { return }
      var seen = StoreBackendChanges()
      // What others wrote is noted even when the commit fails: the backend has moved on.
      defer { noteExternal(seen, except: encoded) }
      do throws(StoreError) {
        try backend.commit(
          encoded.mapValues(StoreBackendValue.init), timeout: lockTimeout, seen: &seen)
        state.commits += 1
        // The backend read what it holds on the way: a failed change check is over.
        state.watchFailure = nil
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
        var committed: (Outcome, [any Delivery])?
        var taken: [StoreEntry] = []
        do throws(StoreError) {
          try backend.commitExclusively(timeout: nil) { changes in
            state.watchFailure = nil
            noteExternal(changes, except: [:])
            committed = storage.withLock { storeState in
              var deliveries = storeState.commitExternal(at: timestamp)
              let (outcome, delivery) = commit(&storeState)
              deliveries.append(delivery)
              return (outcome, deliveries)
            }
            guard let (pending, encoded) = takeDirty(&state) else { return [:] }
            taken = pending
            return encoded.mapValues(StoreBackendValue.init)
          }
          if !taken.isEmpty { state.commits += 1 }
        } catch {
          // Committed in memory but not written: the values stay dirty for the next write.
          if !taken.isEmpty { storage.withLock { $0.markDirtyAgain(taken) } }
          state.unreportedError = state.unreportedError ?? error
          failure = error
        }
        if let committed { return committed }
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
    errors.send(error)
  }

  /// Sends each value a write refused to ``errors``, once, with no lock held.
  func publishUnencodable() {
    let refused = cycle.withLock { state in
      defer { state.unpublished = [] }
      return state.unpublished
    }
    for failure in refused { errors.send(failure) }
  }
}
