import Foundation
@_spi(Testing) import KeyedStore
import ReactiveCore
import Testing

struct Profile: Codable, Equatable, Sendable {
  var name: String
  var age: Int
}

/// Not `Codable`: lives in memory only.
struct Session: Equatable, Sendable {
  var id: Int
}

/// Values of several shapes, each staged, written, and read back by a new store.
enum Sample: String, CaseIterable, Sendable {
  case int, largeInt, negative, double, bool, string, unicode, array, dictionary, optional, profile

  /// Stages the sample's value under the key named after the case.
  func stage(on store: Store) {
    switch self {
    case .int: store.stage(27, for: StoreKey<Int>(rawValue))
    case .largeInt: store.stage(Int64.max, for: StoreKey<Int64>(rawValue))
    case .negative: store.stage(-5, for: StoreKey<Int>(rawValue))
    case .double: store.stage(0.1, for: StoreKey<Double>(rawValue))
    case .bool: store.stage(true, for: StoreKey<Bool>(rawValue))
    case .string: store.stage("hello!", for: StoreKey<String>(rawValue))
    case .unicode: store.stage("naïve 🐟 \"quoted\"\n", for: StoreKey<String>(rawValue))
    case .array: store.stage([1, 2, 3], for: StoreKey<[Int]>(rawValue))
    case .dictionary: store.stage(["a": 1], for: StoreKey<[String: Int]>(rawValue))
    case .optional: store.stage(Int?.none, for: StoreKey<Int?>(rawValue))
    case .profile: store.stage(Profile(name: "Ada", age: 36), for: StoreKey<Profile>(rawValue))
    }
  }

  /// Whether `store` holds the sample's value: read back, in the tests, by a new store.
  func isStaged(in store: Store) -> Bool {
    switch self {
    case .int: store.value(for: StoreKey<Int>(rawValue)) == 27
    case .largeInt: store.value(for: StoreKey<Int64>(rawValue)) == Int64.max
    case .negative: store.value(for: StoreKey<Int>(rawValue)) == -5
    case .double: store.value(for: StoreKey<Double>(rawValue)) == 0.1
    case .bool: store.value(for: StoreKey<Bool>(rawValue)) == true
    case .string: store.value(for: StoreKey<String>(rawValue)) == "hello!"
    case .unicode: store.value(for: StoreKey<String>(rawValue)) == "naïve 🐟 \"quoted\"\n"
    case .array: store.value(for: StoreKey<[Int]>(rawValue)) == [1, 2, 3]
    case .dictionary: store.value(for: StoreKey<[String: Int]>(rawValue)) == ["a": 1]
    case .optional: store.value(for: StoreKey<Int?>(rawValue)) == .some(nil)
    case .profile: store.value(for: StoreKey<Profile>(rawValue)) == Profile(name: "Ada", age: 36)
    }
  }
}

@Suite struct PersistenceTests {
  @Test(arguments: Sample.allCases)
  func valuesSurviveReopening(sample: Sample) throws {
    let folder = TemporaryFolder()
    do {
      let store = try openStore(folder.file())
      sample.stage(on: store)
      try store.flush()
    }
    let reopened = try openStore(folder.file())
    #expect(sample.isStaged(in: reopened))
  }

  @Test func theFileIsReadableJSONWithAVersion() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage("hello", for: StoreKey<String>("greeting"))
    store.stage(Profile(name: "Ada", age: 36), for: StoreKey<Profile>("profile"))
    try store.flush()
    let contents = text(at: folder.file())
    #expect(contents.contains(#""format" : "ripple.keyedstore""#))
    #expect(contents.contains(#""version" : 1"#))
    #expect(contents.contains(#""greeting" : "hello""#))
    #expect(contents.contains(#""name" : "Ada""#))
    #expect(contents.contains("\n  "))  // pretty-printed, one value per line
  }

  @Test func nonCodableAndOptedOutKeysStayInMemory() throws {
    let folder = TemporaryFolder()
    let session = StoreKey<Session>("session")
    let token = StoreKey<String>("token", persisted: false)
    do {
      let store = try openStore(folder.file())
      store.stage(Session(id: 1), for: session)
      store.stage("secret", for: token)
      store.stage(1, for: StoreKey<Int>("kept"))
      #expect(store.value(for: session) == Session(id: 1))
      #expect(store.value(for: token) == "secret")
      try store.flush()
    }
    #expect(!text(at: folder.file()).contains("session"))
    #expect(!text(at: folder.file()).contains("secret"))
    let reopened = try openStore(folder.file())
    #expect(reopened.value(for: session) == nil)
    #expect(reopened.value(for: token) == nil)
    #expect(reopened.value(for: StoreKey<Int>("kept")) == 1)
  }

  @Test func storedValuesDecodeOnFirstTypedAccess() throws {
    let folder = TemporaryFolder()
    write(
      storeFile(
        values:
          #"{"count": 3, "names": ["a", "b"], "flag": true, "profile": {"name": "Ada", "age": 36}}"#
      ),
      to: folder.file())
    let store = try openStore(folder.file())
    #expect(store.value(for: StoreKey<Int>("count")) == 3)
    #expect(store[StoreKey<[String]>("names")] == ["a", "b"])
    let both = store.values(for: [AnyStoreKey(StoreKey<Bool>("flag"))])
    #expect(both[AnyStoreKey(StoreKey<Bool>("flag"))] as? Bool == true)
    let seen = Recorder<Mutation<Profile>>()
    store.registerObserver(for: StoreKey<Profile>("profile")) { seen.append($0) }
    store.stage(Profile(name: "Ada", age: 37), for: StoreKey<Profile>("profile"))
    #expect(seen.values.map(\.oldValue) == [Profile(name: "Ada", age: 36)])
    #expect(store.update(0, for: StoreKey<Int>("count")) { $0 += 1 } == 4)
  }

  @Test func stagingTheStoredValueIsRedundant() throws {
    let folder = TemporaryFolder()
    write(storeFile(values: #"{"count": 3}"#), to: folder.file())
    let store = try openStore(folder.file())
    #expect(store.stage(3, for: StoreKey<Int>("count")) == .discardedAsRedundant)
    #expect(store.stage(4, for: StoreKey<Int>("count")) == .committed)
  }

  @Test func aValueThatNoLongerDecodesThrowsNamingTheKeyAndStaysInTheFile() throws {
    let folder = TemporaryFolder()
    write(storeFile(values: #"{"count": "three", "other": 1}"#), to: folder.file())
    let store = try openStore(folder.file())
    let count = StoreKey<Int>("count")
    #expect(store.value(for: count) == nil)
    do {
      _ = try store.checkedValue(for: count)
      Issue.record("expected an undecodable value")
    } catch {
      guard case .undecodableValue(let key, let type, let path, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(key == "count" && type == "Int" && path == folder.file())
      #expect(error.description.contains("migration"))
    }
    store.stage(2, for: StoreKey<Int>("other"))
    try store.flush()
    #expect(text(at: folder.file()).contains(#""count" : "three""#))
    store.stage(3, for: count)
    #expect(try store.checkedValue(for: count) == 3)
  }

  @Test func tenThousandStagesCoalesceIntoAFewWrites() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    let counter = StoreKey<Int>("counter")
    for value in 1...10_000 { store.stage(value, for: counter) }
    try store.flush()
    // Writing on every stage would make 10,000; coalescing makes a handful.
    #expect(store.persistedWriteCount >= 1)
    #expect(store.persistedWriteCount < 1_000)
    #expect(text(at: folder.file()).contains(#""counter" : 10000"#))
  }

  @Test func flushMakesEverythingCommittedBeforeItDurable() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    for round in 1...20 {
      try store.batch { batch in
        batch.stage(round, for: StoreKey<Int>("round"))
        batch.stage("r\(round)", for: StoreKey<String>("label"))
      }
      try store.flush()
      let contents = text(at: folder.file())
      #expect(contents.contains(#""round" : \#(round)"#))
      #expect(contents.contains(#""label" : "r\#(round)""#))
    }
  }

  @Test func releasingTheStoreWritesTheRestAndFreesIt() throws {
    let folder = TemporaryFolder()
    weak var released: Store?
    do {
      let store = try Store(persistence: .file(path: folder.file()))
      released = store
      store.registerObserver(for: StoreKey<Int>("last")) { _ in }
      for value in 1...100 { store.stage(value, for: StoreKey<Int>("last")) }
    }
    #expect(released == nil)
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("last")) == 100)
  }

  @Test func closingFlushesAndLaterStagesStayInMemory() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: StoreKey<Int>("value"))
    try store.close()
    store.stage(2, for: StoreKey<Int>("value"))
    try store.flush()
    #expect(store.value(for: StoreKey<Int>("value")) == 2)
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("value")) == 1)
  }

  @Test func delayedStagesOnATestSchedulerPersist() throws {
    let folder = TemporaryFolder()
    let scheduler = TestScheduler()
    let store = try Store(
      scheduler: scheduler, persistence: .file(path: folder.file(), changeCheckInterval: nil))
    let pending = store.stage(5, for: StoreKey<Int>("later"), after: .seconds(3))
    scheduler.advance(by: .seconds(3))
    withExtendedLifetime(pending) {}
    #expect(store.value(for: StoreKey<Int>("later")) == 5)
    try store.flush()
    #expect(text(at: folder.file()).contains("later"))
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("later")) == 5)
  }

  @Test func postingAStoredKeyNotifiesWithItsStoredValue() throws {
    let folder = TemporaryFolder()
    write(storeFile(values: #"{"count": 3}"#), to: folder.file())
    let store = try openStore(folder.file())
    let seen = Recorder<Int>()
    store.registerObserver(for: StoreKey<Int>("count")) { seen.append($0.newValue) }
    store.post(StoreKey<Int>("count"))
    #expect(seen.values == [3])
  }

  @Test func memoryStoresWriteNothing() throws {
    let store = try Store(persistence: .memory)
    store.stage(1, for: StoreKey<Int>("value"))
    try store.flush()
    try store.refresh()
    #expect(store.persistencePath == nil)
    #expect(Persistence.memory.path == nil)
    #expect(store.value(for: StoreKey<Int>("value")) == 1)
  }

  @Test func missingFoldersAreCreated() throws {
    let folder = TemporaryFolder()
    let path = folder.file("a/b/store.json")
    let store = try openStore(path)
    store.stage(1, for: StoreKey<Int>("value"))
    try store.flush()
    #expect(store.persistencePath == path)
    #expect(try openStore(path).value(for: StoreKey<Int>("value")) == 1)
  }

  @Test(arguments: [
    (["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"], "/xdg/MyApp/store.json"),
    (["HOME": "/home/u"], "/home/u/.config/MyApp/store.json"),
    (["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"], "/home/u/.config/MyApp/store.json"),
  ])
  func defaultPathFollowsXDG(environment: [String: String], expected: String) throws {
    #expect(
      try Persistence.defaultPath(app: "MyApp", fileName: "store.json", environment: environment)
        == expected)
  }

  @Test func noHomeMeansNoDefaultLocation() {
    #expect(throws: StoreError.self) {
      try Persistence.defaultPath(app: "MyApp", fileName: "store.json", environment: [:])
    }
    #expect(throws: StoreError.self) {
      try Persistence.defaultPath(app: "a/b", fileName: "store.json", environment: ["HOME": "/h"])
    }
  }

  @Test func defaultFileIsOneCallAway() throws {
    let persistence = try Persistence.defaultFile(app: "RippleKeyedStoreTests")
    #expect(persistence.path?.hasSuffix("/RippleKeyedStoreTests/store.json") == true)
  }
}
