import Foundation
import KeyedStore
import ReactiveCore
import Testing

/// The store over a backend other than its file (``LedgerBackend``, a shared ledger
/// standing for a database): typed keys, observers, origins, updates, batches and errors
/// work as they do over a file.
@Suite struct BackendTests {
  let flag = StoreKey<Bool>("maintenance")
  let limit = StoreKey<Int>("rateLimit")

  func open(_ ledger: Ledger, readOnly: Bool = false) throws -> Store {
    try Store(persistence: .backend(LedgerBackend(ledger, readOnly: readOnly)))
  }

  @Test func aFlushedValueReachesAStoreOpenedLater() throws {
    let ledger = Ledger()
    let first = try open(ledger)
    first.stage(true, for: flag)
    first.stage(100, for: limit)
    try first.flush()
    let second = try open(ledger)
    #expect(second.value(for: flag) == true)
    #expect(second.value(for: limit) == 100)
    #expect(second.persistencePath == "ledger")
  }

  @Test func anotherStoresCommitIsObservedWithAnExternalOrigin() throws {
    let ledger = Ledger()
    let first = try open(ledger)
    let second = try open(ledger)
    let heard = Recorder<Mutation<Int>>()
    second.registerObserver(for: limit) { heard.append($0) }
    first.stage(5, for: limit)
    try first.flush()
    #expect(eventually { heard.values.count == 1 })
    #expect(heard.values.first?.newValue == 5)
    #expect(heard.values.first?.origin == .anotherProcess)
    #expect(second.value(for: limit) == 5)
  }

  @Test func updatesFromTwoStoresOnFourThreadsEachLoseNothing() async throws {
    let ledger = Ledger()
    let stores = [try open(ledger), try open(ledger)]
    let key = limit
    await withTaskGroup(of: Void.self) { group in
      for store in stores {
        for _ in 0..<4 {
          group.addTask {
            for _ in 0..<100 { store.update(0, for: key) { $0 += 1 } }
          }
        }
      }
    }
    for store in stores { try store.flush() }
    #expect(try open(ledger).value(for: key) == 800)
    for store in stores {
      try store.refresh()
      #expect(store.value(for: key) == 800)
    }
  }

  @Test func aBatchIsCommittedWhole() throws {
    let ledger = Ledger()
    let first = try open(ledger)
    let second = try open(ledger)
    let heard = Recorder<String>()
    second.registerObserver(for: flag) { _ in heard.append("flag") }
    second.registerObserver(for: limit) { _ in heard.append("limit") }
    try first.batch { batch in
      batch.stage(true, for: flag)
      batch.stage(7, for: limit)
    }
    #expect(eventually { heard.values.count == 2 })
    #expect(Set(heard.values) == ["flag", "limit"])
  }

  @Test func whileTheBackendIsDownStagesStayAndFlushThrowsThenCatchesUp() throws {
    let ledger = Ledger()
    let first = try open(ledger)
    let second = try open(ledger)
    let failures = Recorder<StoreError>()
    let cancellable = first.errors.sink { failures.append($0) }
    defer { cancellable.cancel() }
    ledger.isDown = true
    first.stage(42, for: limit)
    #expect(first.value(for: limit) == 42)
    #expect(throws: StoreError.self) { try first.flush() }
    do {
      try first.flush()
    } catch {
      #expect("\(error)".contains("ledger"))
      #expect(!"\(error)".contains("42"))
    }
    ledger.isDown = false
    try first.flush()
    try second.refresh()
    #expect(second.value(for: limit) == 42)
  }

  @Test func aBackgroundWriteThatFailedIsRetriedOnceTheBackendAnswersAgain() throws {
    let ledger = Ledger()
    let first = try open(ledger)
    let second = try open(ledger)
    let failures = Recorder<StoreError>()
    let cancellable = first.errors.sink { failures.append($0) }
    defer { cancellable.cancel() }
    ledger.isDown = true
    first.stage(9, for: limit)  // written in the background, which fails
    #expect(eventually { failures.values.count == 1 })
    ledger.isDown = false
    // Another store's commit is news from the backend: the first store writes again,
    // with no stage and no flush of its own.
    second.stage(true, for: flag)
    try second.flush()
    #expect(eventually { (try? open(ledger).value(for: limit)) == 9 })
    #expect(failures.values.count == 1)
  }

  @Test func aValueNoTypedKeyCanReadIsNilAndReported() throws {
    let ledger = Ledger()
    let writer = try open(ledger)
    let reader = try open(ledger)
    let failures = Recorder<StoreError>()
    let cancellable = reader.errors.sink { failures.append($0) }
    defer { cancellable.cancel() }
    #expect(reader.value(for: limit) == nil)
    writer.stage("not a number", for: StoreKey<String>("rateLimit"))
    try writer.flush()
    try reader.refresh()
    #expect(reader.value(for: limit) == nil)
    #expect(throws: StoreError.self) { try reader.checkedValue(for: limit) }
    #expect(eventually { !failures.values.isEmpty })
  }

  @Test func aReadOnlyBackendKeepsStagesInMemoryAndSaysSo() throws {
    let ledger = Ledger()
    let store = try open(ledger, readOnly: true)
    #expect(store.isReadOnly)
    store.stage(1, for: limit)
    #expect(store.value(for: limit) == 1)
    #expect(throws: StoreError.self) { try store.flush() }
  }

  @Test func aBackendsOwnFailureIsPublished() throws {
    let ledger = Ledger()
    let backend = LedgerBackend(ledger)
    let store = try Store(persistence: .backend(backend))
    let failures = Recorder<StoreError>()
    let cancellable = store.errors.sink { failures.append($0) }
    defer { cancellable.cancel() }
    let events = ledger.state.withLock { $0.listeners[ObjectIdentifier(backend)] }
    events?.failed(.writeFailed(path: "ledger", reason: "the connection was lost"))
    #expect(failures.values.count == 1)
  }

  @Test func aClosedStoreReleasesItsBackend() throws {
    let ledger = Ledger()
    weak var released: LedgerBackend?
    do {
      let backend = LedgerBackend(ledger)
      released = backend
      let store = try Store(persistence: .backend(backend))
      store.stage(3, for: limit)
      try store.close()
    }
    // A background write queued before the close may hold the store a moment longer.
    #expect(eventually { released == nil })
    #expect(ledger.state.withLock { $0.listeners.isEmpty })
    #expect(try open(ledger).value(for: limit) == 3)
  }

  @Test(arguments: [
    #"{"a": [1, 2.5, "x", null, true]}"#, "  7 ", #""\u00e9""#, "[]",
  ])
  func valuesReadFromJSONTextKeepTheirMeaning(text: String) throws {
    let value = try StoreBackendValue(jsonText: text, location: "test")
    #expect(try StoreBackendValue(jsonText: value.jsonText, location: "test") == value)
  }

  @Test(arguments: ["", "{", "1 2", "nul", #"{"a":}"#])
  func textThatIsNotOneJSONValueIsATypedError(text: String) {
    #expect(throws: StoreError.self) { try StoreBackendValue(jsonText: text, location: "test") }
  }
}
