import Foundation
import KeyedStore
import Testing

/// Replays the `FuzzStoreFile` libFuzzer target's corpus in `swift test`, with the target's
/// oracle (`Fuzz/Sources/FuzzStoreFile/FuzzStoreFile.swift`): any bytes as a store file
/// either open, and then every probed key reads or throws a typed `StoreError`, or the open
/// fails with a `StoreError` and leaves the file byte for byte as it was. The target also
/// tries each input as the journal of a valid store file (`check(_:journal:)`).
///
/// Every file in `Fuzz/Corpus/StoreFile` is a test case here, found at run time: every crash
/// libFuzzer finds is to be saved into that corpus folder (`.ci/fuzz` prints the failing
/// input in base64; decode it into a new file there), so it becomes a regression test here
/// automatically, with no test code to write.
///
/// The time limit catches a case that never ends (a parser or escaper in a loop). It is
/// ten minutes, not one, because the limit also counts the time a case waits for a thread
/// while the rest of the suite runs in parallel on CI's two cores. In stop 39's CI, both
/// fuzz suites took 57 s in the plain run, and under the thread sanitizer every case of
/// the HTML suite hit a one-minute limit at once, 262 s into a 267 s run.
@Suite(.timeLimit(.minutes(10))) struct FuzzCorpusStoreFileTests {
  /// `Fuzz/Corpus/StoreFile`, from this file's place in the repository.
  static let corpusFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // KeyedStoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the repository
    .appendingPathComponent("Fuzz/Corpus/StoreFile")

  /// The corpus files' names, sorted; hidden files are skipped.
  static let corpus: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)) ?? [])
    .filter { !$0.hasPrefix(".") }
    .sorted()

  /// What opening an input did, when the oracle holds.
  enum Outcome: Equatable {
    case opened
    case rejected
  }

  /// A store file with a generation, whose journal the inputs are in `check(_:journal:)`.
  static let journaledFile =
    #"{"format": "ripple.keyedstore", "version": 1, "generation": "00000000000000aa", "values": {"a": 1}}"#

  /// The fuzz target's oracle on `bytes` as the store file and `journal`, unless `nil`, as
  /// its journal: whether it opened or was rejected, or a description of the violation.
  static func check(_ bytes: Data, journal: Data? = nil) -> Result<Outcome, Violation> {
    let folder = TemporaryFolder()
    let path = folder.file()
    guard FileManager.default.createFile(atPath: path, contents: bytes),
      journal.map({ FileManager.default.createFile(atPath: path + ".journal", contents: $0) })
        ?? true
    else {
      return .failure(Violation("could not write the input"))
    }
    do {
      let store = try Store(persistence: .file(path: path, changeCheckInterval: nil))
      for name in ["a", "b", "count", "name"] {
        // Typed throws: each read returns a value or a `StoreError`, nothing else.
        _ = Result { () throws(StoreError) in try store.checkedValue(for: StoreKey<Int>(name)) }
        _ = Result { () throws(StoreError) in
          try store.checkedValue(for: StoreKey<String>(name + "-text"))
        }
        _ = Result { () throws(StoreError) in
          try store.checkedValue(for: StoreKey<[String: Double]>(name + "-map"))
        }
      }
      try? store.close()
      return .success(.opened)
    } catch {
      // A rejected file must be left exactly as it was. (`contents(atPath:)` leaks its
      // buffer for an empty file, so an empty one is not read.)
      let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
      let after = size == 0 ? Data() : FileManager.default.contents(atPath: path) ?? Data()
      if after != bytes {
        return .failure(
          Violation(
            "a failed open (\(error)) changed the file to \(after.count) bytes: "
              + String(decoding: after.prefix(200), as: UTF8.self)))
      }
      let journalPath = path + ".journal"
      let journalSize =
        (try? FileManager.default.attributesOfItem(atPath: journalPath))?[.size] as? Int ?? 0
      let journalAfter =
        journalSize == 0 ? Data() : FileManager.default.contents(atPath: journalPath) ?? Data()
      if let journal, journalAfter != journal {
        return .failure(Violation("a failed open (\(error)) changed the journal"))
      }
      return .success(.rejected)
    }
  }

  /// A broken oracle, described.
  struct Violation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  @Test func theCorpusIsFound() {
    #expect(Self.corpus.contains("valid.json"), "no corpus at \(Self.corpusFolder.path)")
  }

  @Test(arguments: corpus)
  func corpusFileOpensOrFailsTypedLeavingItUnchanged(_ name: String) throws {
    let bytes = try Data(contentsOf: Self.corpusFolder.appendingPathComponent(name))
    if case .failure(let violation) = Self.check(bytes) { Issue.record("\(name): \(violation)") }
  }

  @Test(arguments: corpus)
  func corpusFileAsAJournalOpensOrFailsTypedLeavingBothUnchanged(_ name: String) throws {
    let bytes = try Data(contentsOf: Self.corpusFolder.appendingPathComponent(name))
    let outcome = Self.check(Data(Self.journaledFile.utf8), journal: bytes)
    if case .failure(let violation) = outcome { Issue.record("\(name): \(violation)") }
  }

  /// Journals that open (whole, cut short, stale, empty) and that are rejected (a bad whole
  /// line, a bad header).
  @Test func journalInputsExerciseBothOutcomes() {
    let header = #"{"format":"ripple.keyedstore.journal","generation":"00000000000000aa"}"# + "\n"
    let cases: [(String, Outcome)] = [
      (header + #"{"values":{"a":2}}"# + "\n", .opened),
      (header + #"{"values":{"a":"#, .opened),
      (#"{"format":"ripple.keyedstore.journal","generation":"ff"}"# + "\n{}\n", .opened),
      ("", .opened),
      (header + "{}\n", .rejected),
      (header + "garbage\n" + #"{"values":{"a":2}}"# + "\n", .rejected),
      ("not a header\n", .rejected),
    ]
    for (journal, expected) in cases {
      let outcome = Self.check(Data(Self.journaledFile.utf8), journal: Data(journal.utf8))
      #expect((try? outcome.get()) == expected, "\(journal.debugDescription): \(outcome)")
    }
  }

  /// Hand-written adversarial inputs in the corpus's style.
  ///
  /// Built afresh by each test rather than kept in a `static let`: `Data` packs tag bits
  /// into its storage pointer, so LeakSanitizer cannot trace a global's `Data` to its
  /// buffer and reports every one as leaked at exit.
  static func adversarial() -> [(name: String, bytes: Data)] {
    func file(_ values: String, version: String = "1") -> Data {
      Data(#"{"format": "ripple.keyedstore", "version": \#(version), "values": \#(values)}"#.utf8)
    }
    let depth = 100_000
    let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let deepObject =
      String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    return [
      ("deeply nested array value", file(#"{"a": \#(deep)}"#)),
      ("deeply nested object value", file(#"{"a-map": \#(deepObject)}"#)),
      ("deeply nested document", Data(deep.utf8)),
      (
        "wrong types for registered keys",
        file(
          #"{"a": "1", "b": true, "count": [1], "name-text": 7, "a-map": {"x": "y"}, "b-map": [1.0]}"#
        )
      ),
      (
        "integer overflow",
        file(#"{"a": 9223372036854775808, "b": -9223372036854775809, "count": 1e400}"#)
      ),
      ("fractional and exponent integers", file(#"{"a": 1.5, "b": 1e2, "count": -0}"#)),
      ("duplicate keys", file(#"{"a": 1, "a": "one", "a": null}"#)),
      ("null values", file(#"{"a": null, "name-text": null, "a-map": null}"#)),
      ("values is an array", file("[1, 2, 3]")),
      ("values is a string", file(#""values""#)),
      ("version is negative", file("{}", version: "-1")),
      ("version is fractional", file("{}", version: "1.5")),
      ("version is a string", file("{}", version: #""1""#)),
      ("version is huge", file("{}", version: "18446744073709551616")),
      ("other format", Data(#"{"format": "other", "version": 1, "values": {}}"#.utf8)),
      ("no format", Data(#"{"version": 1, "values": {"a": 1}}"#.utf8)),
      ("empty file", Data()),
      ("only whitespace", Data(" \n\t\r ".utf8)),
      ("byte order mark", Data([0xEF, 0xBB, 0xBF]) + file(#"{"a": 1}"#)),
      ("UTF-16 text", Data(file(#"{"a": 1}"#).flatMap { [$0, 0] })),
      (
        "invalid UTF-8 in a string",
        Data(file(#"{"name-text": "\#u{FFFD}"}"#).map { $0 == 0xEF ? 0xFF : $0 })
      ),
      ("NUL bytes", file(#"{"a": 1}"#) + Data([0, 0, 0])),
      ("lone surrogate escape", file(#"{"name-text": "\uD800", "b-text": "\uDC00\uD800"}"#)),
      ("trailing garbage", file(#"{"a": 1}"#) + Data("}}]],,".utf8)),
      ("huge key", file(#"{"\#(String(repeating: "k", count: 1 << 20))": 1}"#)),
      (
        "many keys",
        file("{" + (0..<20_000).map { #""k\#($0)": \#($0)"# }.joined(separator: ",") + "}")
      ),
    ]
  }

  /// How many adversarial inputs there are (fixed; the inputs themselves are built per test).
  static let adversarialCount = adversarial().count

  @Test(arguments: 0..<adversarialCount)
  func adversarialFileOpensOrFailsTypedLeavingItUnchanged(_ index: Int) {
    let (name, bytes) = Self.adversarial()[index]
    if case .failure(let violation) = Self.check(bytes) { Issue.record("\(name): \(violation)") }
  }

  /// The inputs reach both sides of the oracle: some open, some are rejected (so the
  /// "file unchanged" check runs), and a valid file is not rejected.
  @Test func theInputsExerciseBothOutcomes() throws {
    let outcomes = Self.adversarial().map { Self.check($0.bytes) }
    #expect(outcomes.contains { (try? $0.get()) == .opened })
    #expect(outcomes.contains { (try? $0.get()) == .rejected })
    let valid = try Data(contentsOf: Self.corpusFolder.appendingPathComponent("valid.json"))
    #expect((try? Self.check(valid).get()) == .opened)
    let truncated = try Data(contentsOf: Self.corpusFolder.appendingPathComponent("truncated.json"))
    #expect((try? Self.check(truncated).get()) == .rejected)
  }
}
