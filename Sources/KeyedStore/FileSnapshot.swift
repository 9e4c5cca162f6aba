/// What a store read of its file: the values with the journal applied.
struct FileSnapshot {
  var values: [String: StoredJSON]
  var version: Int
  var stamp: FileStamp
  var generation: String?
  var journal: JournalState
}

/// What a store last read or wrote of the journal (see ``StoreJournal``).
struct JournalState: Equatable {
  /// Its stamp; `nil` when there was none.
  var stamp: FileStamp?
  /// The offset after its last whole line: where the next read or append starts.
  var end = 0
  /// Whether it belongs to the file's generation, so that appends go to it.
  var isLive = false
}

/// How the file's values differ from what a store last knew.
struct FileChanges {
  var changed: [String: StoredJSON] = [:]
  var removed: [String] = []

  init() {}

  init(from old: [String: StoredJSON], to new: [String: StoredJSON]) {
    for (name, value) in new where old[name] != value { changed[name] = value }
    for name in old.keys where new[name] == nil { removed.append(name) }
  }

  var isEmpty: Bool { changed.isEmpty && removed.isEmpty }
}

/// Paces a store's background writes to about a tenth of the time: a write that took
/// *d* is followed by at least 9 *d* without one (at most ``WritePacing/longestPause``).
struct WritePacing {
  /// The longest a background write waits for its turn.
  static let longestPause = Duration.seconds(10)
  /// The earliest moment the next background write may start.
  var earliestNextWrite: ContinuousClock.Instant?

  /// How long a write requested at `now` waits: zero when its turn has come.
  func delay(at now: ContinuousClock.Instant) -> Duration {
    guard let earliestNextWrite, earliestNextWrite > now else { return .zero }
    return earliestNextWrite - now
  }

  /// Records a background write that ran from `start` to `end`.
  mutating func wrote(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) {
    earliestNextWrite = end + min((end - start) * 9, Self.longestPause)
  }
}
