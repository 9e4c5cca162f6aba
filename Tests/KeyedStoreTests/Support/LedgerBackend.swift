import KeyedStore
import ReactiveCore

/// A shared ledger that several ``LedgerBackend``s write to, as machines share a database:
/// each committed key gets the next revision, and each backend catches up on the
/// revisions it has not seen, as a store catches up after a lost connection.
final class Ledger: Sendable {
  struct Row: Sendable {
    var value: StoreBackendValue
    var revision: Int
    var writer: ObjectIdentifier
  }

  struct State: Sendable {
    var rows: [String: Row] = [:]
    var revision = 0
    /// Whether the ledger is unreachable: every call fails, as a stopped server does.
    var isDown = false
    /// The backends to tell about commits.
    var listeners: [ObjectIdentifier: StoreBackendEvents] = [:]
  }

  let state = LockedBox(State())
  /// Serialises exclusive commits, as a row lock or an advisory lock would.
  let writer = Lock()

  var isDown: Bool {
    get { state.withLock { $0.isDown } }
    set { state.withLock { $0.isDown = newValue } }
  }
}

/// A ``StoreBackend`` over a ``Ledger``: what the store's tests of other backends use.
final class LedgerBackend: StoreBackend {
  let ledger: Ledger
  let location = "ledger"
  let isReadOnly: Bool
  /// The last revision this backend reported or wrote.
  private let seenRevision = LockedBox(0)

  init(_ ledger: Ledger, readOnly: Bool = false) {
    self.ledger = ledger
    isReadOnly = readOnly
  }

  private var unreachable: StoreError {
    .writeFailed(path: location, reason: "the ledger is unreachable")
  }

  func load() throws(StoreError) -> [String: StoreBackendValue] {
    let (rows, revision, isDown) = ledger.state.withLock { ($0.rows, $0.revision, $0.isDown) }
    if isDown { throw unreachable }
    seenRevision.withLock { $0 = revision }
    return rows.mapValues(\.value)
  }

  func commit(
    _ values: [String: StoreBackendValue], timeout: Duration?, seen: inout StoreBackendChanges
  ) throws(StoreError) {
    if isReadOnly { throw .writeFailed(path: location, reason: "read-only") }
    ledger.writer.lock()
    defer { ledger.writer.unlock() }
    seen.merge(try changes())
    try write(values)
  }

  func commitExclusively(
    timeout: Duration?, _ body: (StoreBackendChanges) -> [String: StoreBackendValue]
  ) throws(StoreError) {
    if isReadOnly { throw .writeFailed(path: location, reason: "read-only") }
    ledger.writer.lock()
    defer { ledger.writer.unlock() }
    let values = body(try changes())
    try write(values)
  }

  private func write(_ values: [String: StoreBackendValue]) throws(StoreError) {
    guard !values.isEmpty else { return }
    let id = ObjectIdentifier(self)
    let listeners = try ledger.state.withLock { state throws(StoreError) in
      if state.isDown { throw unreachable }
      state.revision += 1
      for (name, value) in values {
        state.rows[name] = Ledger.Row(value: value, revision: state.revision, writer: id)
      }
      return state.listeners.filter { $0.key != id }.map(\.value)
    }
    for listener in listeners { listener.changed() }
  }

  func changes() throws(StoreError) -> StoreBackendChanges {
    let id = ObjectIdentifier(self)
    let since = seenRevision.withLock { $0 }
    let (rows, revision) = try ledger.state.withLock {
      state throws(StoreError) -> ([String: Ledger.Row], Int) in
      if state.isDown { throw unreachable }
      return (state.rows.filter { $0.value.revision > since }, state.revision)
    }
    seenRevision.withLock { $0 = max($0, revision) }
    var changes = StoreBackendChanges()
    for (name, row) in rows where row.writer != id { changes.changed[name] = row.value }
    return changes
  }

  func watch(every interval: Duration?, events: StoreBackendEvents) {
    ledger.state.withLock { $0.listeners[ObjectIdentifier(self)] = events }
  }

  func close() {
    ledger.state.withLock { $0.listeners[ObjectIdentifier(self)] = nil }
  }
}
