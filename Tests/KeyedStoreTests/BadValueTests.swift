import Foundation
import KeyedStore
import ModelTesting
import Testing

/// A value whose `encode(to:)` nests `depth` arrays, one `encode(to:)` call per level, as
/// a recursive `Codable` type does, without a deep structure in memory to free.
struct Nested: Codable, Sendable, Equatable {
  var depth: Int

  init(depth: Int) {
    self.depth = depth
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    if depth > 0 { try container.encode(Nested(depth: depth - 1)) }
  }

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    depth = container.isAtEnd ? 0 : try container.decode(Nested.self).depth + 1
  }
}

/// A value whose `encode(to:)` throws an error that quotes what it holds.
struct Refusing: Codable, Sendable, Equatable {
  struct Failure: Error { let quoted: String }
  var text: String
  func encode(to encoder: any Encoder) throws { throw Failure(quoted: text) }
}

/// A value holding a NaN beside text.
struct Reading: Codable, Sendable, Equatable {
  var label: String
  var ratio: Double
}

/// One bad value costs one key: a value the file holds that cannot be read costs only that
/// key, and stays in the file; a value that cannot be encoded is refused naming its key,
/// without crashing, and the other keys are written; no error text quotes a value.
@Suite struct BadValueTests {
  static let count = StoreKey<Int>("count")
  static let name = StoreKey<String>("name")
  static let deep = StoreKey<Nested>("deep")

  /// 600 arrays, each inside the last: more than `JSONDecoder` reads, which counted the
  /// file's own two levels against the value.
  static let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)

  /// Text that appears in values below and must appear in no error's description.
  static let secret = "SECRET-4d1f"

  /// The key an `undecodableValue` error names, or `nil` for another error (or none).
  static func undecodableKey(_ read: () throws -> Void) -> String? {
    do {
      try read()
    } catch {
      if case .undecodableValue(let key, _, _, _) = error as? StoreError { return key }
    }
    return nil
  }

  /// The key and reason an `unencodableValue` error names, or `nil` for another outcome.
  static func unencodable(_ flush: () throws -> Void) -> (String, String)? {
    do {
      try flush()
    } catch {
      if case .unencodableValue(let key, let reason) = error as? StoreError { return (key, reason) }
    }
    return nil
  }

  @Test func loneSurrogatesInTheFileReadAsTheReplacementCharacter() throws {
    let folder = TemporaryFolder()
    let values = #"{"name": "caf\udce9", "pair": "\ud83d\ude00", "high": "\ud83dx", "count": 3}"#
    write(storeFile(values: values), to: folder.file())
    let store = try openStore(folder.file())
    #expect(store.value(for: Self.name) == "caf\u{FFFD}")
    #expect(store.value(for: StoreKey<String>("pair")) == "😀")
    #expect(store.value(for: StoreKey<String>("high")) == "\u{FFFD}x")
    #expect(store.value(for: Self.count) == 3)
  }

  @Test func aLoneSurrogateInTheJournalReadsAsTheReplacementCharacter() throws {
    let folder = TemporaryFolder()
    do {
      // The first write makes the file; the second starts its journal.
      let store = try openJournaling(folder.file())
      store.stage(1, for: Self.count)
      try store.flush()
      store.stage(2, for: Self.count)
      try store.flush()
    }
    append(#"{"values":{"name":"\udce9t\u00e9"}}"# + "\n", to: folder.file() + ".journal")
    let store = try openStore(folder.file())
    #expect(store.value(for: Self.name) == "\u{FFFD}té")
    #expect(store.value(for: Self.count) == 2)
  }

  @Test func aValueNestedTooDeepCostsOnlyItsKeyAndIsWrittenBackAsItWas() throws {
    let folder = TemporaryFolder()
    let values = #"{"deep": \#(Self.tooDeep), "count": 3, "name": "x"}"#
    write(storeFile(values: values), to: folder.file())
    let store = try openStore(folder.file())
    #expect(store.value(for: Self.deep) == nil)
    #expect(Self.undecodableKey { _ = try store.checkedValue(for: Self.deep) } == "deep")
    #expect(store.value(for: Self.count) == 3)
    #expect(store.value(for: Self.name) == "x")
    store.stage(4, for: Self.count)
    try store.flush()
    #expect(text(at: folder.file()).contains(#""deep" : \#(Self.tooDeep)"#))
    let reopened = try openStore(folder.file())
    #expect(reopened.value(for: Self.count) == 4)
    #expect(Self.undecodableKey { _ = try reopened.checkedValue(for: Self.deep) } == "deep")
  }

  @Test func aValueNestedTooDeepInTheJournalCostsOnlyItsKey() throws {
    let folder = TemporaryFolder()
    do {
      // The first write makes the file; the second starts its journal.
      let store = try openJournaling(folder.file())
      store.stage(0, for: Self.count)
      try store.flush()
      store.stage(1, for: Self.count)
      try store.flush()
    }
    append(
      #"{"values":{"deep":\#(Self.tooDeep),"name":"x"}}"# + "\n", to: folder.file() + ".journal")
    let store = try openStore(folder.file())
    #expect(Self.undecodableKey { _ = try store.checkedValue(for: Self.deep) } == "deep")
    #expect(store.value(for: Self.name) == "x")
    #expect(store.value(for: Self.count) == 1)
  }

  @Test func aNumberNoTypeHoldsCostsOnlyItsKeyAndIsWrittenBackAsItWas() throws {
    let folder = TemporaryFolder()
    write(storeFile(values: #"{"huge": -1e400, "count": 3}"#), to: folder.file())
    let store = try openStore(folder.file())
    #expect(
      Self.undecodableKey { _ = try store.checkedValue(for: StoreKey<Double>("huge")) } == "huge")
    #expect(store.value(for: Self.count) == 3)
    store.stage(4, for: Self.count)
    try store.flush()
    #expect(text(at: folder.file()).contains(#""huge" : -1e400"#))
  }

  /// Bad values are not a corrupt file: `.moveAside` moves nothing, and every key stays.
  @Test func movingCorruptFilesAsideKeepsAFileWithBadValues() throws {
    let folder = TemporaryFolder()
    let values = #"{"deep": \#(Self.tooDeep), "name": "caf\udce9", "huge": 1e999, "count": 3}"#
    write(storeFile(values: values), to: folder.file())
    let before = bytes(at: folder.file())
    let store = try openStore(folder.file(), ifCorrupt: .moveAside)
    #expect(store.value(for: Self.count) == 3)
    #expect(store.value(for: Self.name) == "caf\u{FFFD}")
    #expect(folder.contents == ["store.json", "store.json.lock"])
    #expect(bytes(at: folder.file()) == before)
  }

  /// What is not JSON is still a corrupt file, as before.
  @Test(arguments: [
    storeFile(values: #"{"count": 3"#), storeFile(values: #"{"count": 3,, "name": "x"}"#),
    storeFile(values: #"{"name": "a\qb"}"#), storeFile(values: #"{"name": "\ud8"}"#),
  ])
  func aDocumentThatIsNotJSONIsStillCorrupt(contents: String) throws {
    let folder = TemporaryFolder()
    write(contents, to: folder.file())
    #expect {
      try openStore(folder.file())
    } throws: { error in
      guard case .corruptFile(let path, _) = error as? StoreError else { return false }
      return path == folder.file()
    }
    #expect(text(at: folder.file()) == contents)
  }

  /// A value nested 100,000 deep is refused naming its key, on a thread with a 512 KiB
  /// stack (where an encoder that recursed without a limit would crash); the other keys
  /// staged with it are written, and later writes succeed.
  @Test func aValueTooDeepToEncodeIsRefusedNamingItsKey() throws {
    let folder = TemporaryFolder()
    nonisolated(unsafe) var outcome: (String, String)?
    onThread {
      guard let store = try? openStore(folder.file()) else { return }
      store.stage(Nested(depth: 100_000), for: Self.deep)
      store.stage(1, for: Self.count)
      store.stage("x", for: Self.name)
      outcome = Self.unencodable { try store.flush() }
    }
    #expect(outcome?.0 == "deep")
    #expect(outcome?.1.contains("deeper than") == true)
    let store = try openStore(folder.file())
    #expect(store.value(for: Self.count) == 1)
    #expect(store.value(for: Self.name) == "x")
    #expect(store.value(for: Self.deep) == nil)
    store.stage(2, for: Self.count)
    try store.flush()
    #expect(try openStore(folder.file()).value(for: Self.count) == 2)
  }

  /// A value as deep as the limit allows is written and read back.
  @Test func aValueAsDeepAsTheLimitRoundTrips() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(Nested(depth: 99), for: Self.deep)
    try store.flush()
    #expect(try openStore(folder.file()).value(for: Self.deep) == Nested(depth: 99))
  }

  @Test func aNaNIsRefusedNamingItsKeyAndLaterWritesSucceed() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(Reading(label: "a", ratio: .nan), for: StoreKey<Reading>("reading"))
    store.stage(1, for: Self.count)
    #expect(Self.unencodable { try store.flush() }?.0 == "reading")
    #expect(try openStore(folder.file()).value(for: Self.count) == 1)
    store.stage(2, for: Self.count)
    try store.flush()
    #expect(try openStore(folder.file()).value(for: Self.count) == 2)
  }

  @Test func anEncodeThatThrowsIsRefusedNamingItsKey() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(Refusing(text: Self.secret), for: StoreKey<Refusing>("refusing"))
    store.stage(1, for: Self.count)
    let refused = Self.unencodable { try store.flush() }
    #expect(refused?.0 == "refusing")
    #expect(refused?.1.contains(Self.secret) == false)
    #expect(try openStore(folder.file()).value(for: Self.count) == 1)
  }

  /// Every error about a bad value names the key or file and says what went wrong,
  /// without quoting a value: not the value read, not one being encoded, not a
  /// dictionary key inside one, not the text around a syntax error.
  @Test func noErrorTextContainsAStoredValue() throws {
    let secret = Self.secret
    var errors: [StoreError] = []
    func record(_ body: () throws -> Void) {
      do {
        try body()
      } catch {
        if let error = error as? StoreError { errors.append(error) }
      }
    }
    let folder = TemporaryFolder()
    let values = #"""
      {"count": "\#(secret)", "list": [1, "\#(secret)"], "map": {"\#(secret)": "x"},
       "when": "\#(secret)", "huge": 1\#(secret.count)e999, "deep": \#(Self.tooDeep)}
      """#
    write(storeFile(values: values), to: folder.file())
    let store = try openStore(folder.file())
    record { _ = try store.checkedValue(for: Self.count) }
    record { _ = try store.checkedValue(for: StoreKey<[Int]>("list")) }
    record { _ = try store.checkedValue(for: StoreKey<[String: Int]>("map")) }
    record { _ = try store.checkedValue(for: StoreKey<Date>("when")) }
    record { _ = try store.checkedValue(for: StoreKey<Int>("huge")) }
    record { _ = try store.checkedValue(for: Self.deep) }
    store.stage([secret: .nan], for: StoreKey<[String: Double]>("ratios"))
    record { try store.flush() }
    store.stage(Reading(label: secret, ratio: .infinity), for: StoreKey<Reading>("reading"))
    record { try store.flush() }
    store.stage(Refusing(text: secret), for: StoreKey<Refusing>("refusing"))
    record { try store.flush() }
    for contents in [
      storeFile(values: #"{"name": "\#(secret)" "count": 1}"#),
      #"{"format": "\#(secret)", "version": 1, "values": {}}"#,
      storeFile(version: 0, values: #"{"name": "\#(secret)"}"#),
    ] {
      let other = TemporaryFolder()
      write(contents, to: other.file())
      let migration = StoreMigration(
        to: 1,
        steps: [.transformValue(of: "name", from: Int.self) { $0 }])
      record { _ = try openStore(other.file(), migrations: [migration]) }
    }
    #expect(errors.count == 12)
    for error in errors {
      #expect(!error.description.contains(secret), "\(error)")
    }
  }
}

@Suite struct EveryRefusedValueIsPublishedTests {
  /// Two values that cannot be encoded in one write: the flush throws the first, and
  /// each is published on `errors`, naming its key; the other keys are written.
  @Test func eachRefusedValueIsPublishedNamingItsKey() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    let published = Recorder<String>()
    let subscription = store.errors.sink { error in
      if case .unencodableValue(let key, _) = error { published.append(key) }
    }
    defer { subscription.cancel() }
    store.stage(Double.nan, for: StoreKey<Double>("first"))
    store.stage(Double.infinity, for: StoreKey<Double>("second"))
    store.stage("kept", for: .someString)
    #expect(throws: StoreError.self) { try store.flush() }
    #expect(eventually { published.values.sorted() == ["first", "second"] })
    #expect(try openStore(folder.file()).value(for: .someString) == "kept")
  }
}
