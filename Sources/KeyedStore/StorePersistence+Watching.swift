import Dispatch
import ReactiveCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension StorePersistence {
  /// Looks for changes to the file, on ``queue``: on Linux when inotify reports an event
  /// for the file in its folder (and, for file systems without events, every
  /// `interval` × 8, at least every 2 seconds), elsewhere every `interval`.
  func watch(every interval: Duration) {
    var pollInterval = interval
    #if canImport(Glibc)
      let watcher = FolderWatcher(path: path, others: [journalPath], queue: queue) {
        [weak self] in
        self?.checkInBackground()
      }
      if let watcher {
        cycle.withLock { $0.folderWatcher = watcher }
        pollInterval = max(interval * 8, .seconds(2))
      }
    #endif
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let (seconds, attoseconds) = pollInterval.components
    let nanoseconds = max(1, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
    timer.setEventHandler { [weak self] in self?.checkInBackground() }
    cycle.withLock { $0.timer = timer }
    timer.resume()
  }

  /// Reads the file if it changed since this store last saw it, and delivers what
  /// another store changed.
  ///
  /// - Throws: A ``StoreError`` when the file changed into something unreadable; this
  ///   store's values and the file are left as they are.
  func checkForChanges() throws(StoreError) {
    do throws(StoreError) {
      try cycle.withLock { state throws(StoreError) in
        guard !state.isClosed else { return }
        // Another store's file is read, never moved aside: it may be mid-migration.
        try absorbFile(into: &state, except: [:], movingCorruptAside: false)
      }
    } catch {
      throw reported(error)
    }
    deliverExternalChanges()
  }

  /// A change check of the watcher: publishes a failure once, when it starts to stand.
  func checkInBackground() {
    do throws(StoreError) {
      try checkForChanges()
    } catch {
      let isNew = cycle.withLock { state in
        defer { state.watchFailure = error }
        return state.watchFailure != error
      }
      if isNew { errors.send(error) }
    }
  }

  /// Hands another store's changes to the store's state: values of keys not bound yet
  /// replace the stored JSON at once; bound keys get mutations, delivered by
  /// ``deliverExternalChanges()``. Keys this store is about to write keep this store's
  /// value (last writer wins).
  func noteExternal(_ changes: FileChanges, except encoded: [String: StoredJSON]) {
    guard !changes.isEmpty else { return }
    let writtenHere = OpenStores.writtenHere(changes.changed, to: path)
    storage.withLock { $0.noteExternal(changes, except: encoded, writtenHere: writtenHere) }
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
