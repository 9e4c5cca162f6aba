import Dispatch
import ReactiveCore

extension FileBackend {
  /// Tells the store to look for changes to the file: on Linux when inotify reports an
  /// event for the file in its folder (and, for file systems without events, every
  /// `interval` × 8, at least every 2 seconds), elsewhere every `interval`. Without an
  /// interval, the store looks only when the app asks.
  func watch(every interval: Duration?, events: StoreBackendEvents) {
    self.events.withLock { $0 = events }
    guard var pollInterval = interval else { return }
    #if canImport(Glibc)
      let watcher = FolderWatcher(path: path, others: [journalPath], queue: queue) {
        events.changed()
      }
      if let watcher {
        state.withLock { $0.folderWatcher = watcher }
        pollInterval = max(pollInterval * 8, .seconds(2))
      }
    #endif
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let (seconds, attoseconds) = pollInterval.components
    let nanoseconds = max(1, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
    timer.setEventHandler { events.changed() }
    state.withLock { $0.timer = timer }
    timer.resume()
  }
}
