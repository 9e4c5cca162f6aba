import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension StorePersistence {
  /// Asks the backend what others committed since this store last heard, and delivers
  /// it.
  ///
  /// - Throws: A ``StoreError`` when what the backend holds cannot be read now (the file
  ///   changed into something unreadable, say); this store's values are left as they are.
  func checkForChanges() throws(StoreError) {
    try cycle.withLock { state throws(StoreError) in
      guard !state.isClosed else { return }
      let changes = try backend.changes()
      state.watchFailure = nil
      noteExternal(changes, except: [:])
    }
    deliverExternalChanges()
  }

  /// A change check of the watcher: publishes a failure once, when it starts to stand.
  func checkInBackground() {
    do throws(StoreError) {
      try checkForChanges()
      retryFailedWrite()
    } catch {
      let isNew = cycle.withLock { state in
        defer { state.watchFailure = error }
        return state.watchFailure != error
      }
      if isNew { errors.send(error) }
    }
  }

  /// Writes again what a failed background write left dirty, once the backend answers
  /// again: a store that staged while a database was unreachable writes its values when
  /// the database is back, without waiting for another stage or a `flush()`.
  ///
  /// Not for the store file: its change checks come from a folder watch and a timer, not
  /// from the file becoming writable, and a full disk would be retried (and reported) on
  /// every one of them; the next stage or `flush()` retries a file's write.
  func retryFailedWrite() {
    guard !(backend is FileBackend), cycle.withLock({ $0.failedBackgroundWrite != nil })
    else { return }
    queue.async { [weak self] in self?.writeWhenPaced(retrying: true) }
  }

  /// Hands another store's changes to the store's state: values of keys not bound yet
  /// replace the stored JSON at once; bound keys get mutations, delivered by
  /// ``deliverExternalChanges()``. Keys this store is about to write keep this store's
  /// value (last writer wins).
  func noteExternal(_ changes: StoreBackendChanges, except encoded: [String: StoredJSON]) {
    guard !changes.isEmpty else { return }
    storage.withLock { $0.noteExternal(changes, except: encoded) }
  }

  /// Commits and delivers the changes that other stores made to bound keys, like any
  /// stage: under the delivery drain, so in commit order.
  func deliverExternalChanges() {
    guard storage.withLock({ !$0.pendingExternal.isEmpty || !$0.pendingUntyped.isEmpty }) else {
      return
    }
    let timestamp = ContinuousClock.now
    deliveries.commit { () -> ((), [any Delivery]) in
      ((), storage.withLock { $0.commitExternal(at: timestamp) })
    }
  }
}
