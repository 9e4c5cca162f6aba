import Foundation
import ModelTesting
import Testing

@testable import KeyedStore

/// The store's own JSON reader and writer against Foundation's: the bytes written are
/// those `JSONEncoder` wrote, and what is read is what `JSONDecoder` read, except where
/// `JSONDecoder` failed the whole document over one value.
@Suite struct JSONFormatTests {
  /// Every ASCII character, and the characters `JSONEncoder` might have escaped.
  static let everyCharacter =
    String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
    + "\u{2028}\u{2029}\u{85}\u{A0}é😀\u{FEFF}"

  static let values: [StoredJSON] = [
    .string(everyCharacter), .string(""), .string("a/b\\c\"d"), .string("e\u{301}"),
    .integer(0), .integer(-1), .integer(.min), .integer(.max), .unsigned(.max),
    .double(0.1), .double(1e-7), .double(1e300), .double(-0.0), .double(2.5), .double(1e16),
    .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .double(-123_456.789e-300),
    .bool(true), .bool(false), .null, .array([]), .object([:]),
    .array([.integer(1), .array([]), .object([:]), .array([.array([.null])])]),
    .object([
      "b": .array([.integer(1), .object(["x": .object([:])]), .array([])]),
      "a": .object(["z": .null, "é": .string("x"), "e\u{301}x": .integer(1), "A": .integer(2)]),
      "a10": .bool(true), "a2": .bool(false), "": .string(""), "😀": .double(0.5),
      "\u{E000}": .integer(3), "a\u{0}": .integer(4), "ß": .integer(5), "ss": .integer(6),
    ]),
  ]

  @Test(arguments: values, [false, true])
  func theWriterWritesWhatJSONEncoderWrote(value: StoredJSON, pretty: Bool) throws {
    #expect(
      try writtenText(value, pretty: pretty)
        == FoundationJSON.text(FoundationJSON(value), pretty: pretty))
  }

  /// The file and journal lines, against the `Codable` structs the store used to encode.
  @Test(arguments: [nil, "00000000000000aa"])
  func fileAndJournalLinesAreWhatJSONEncoderWrote(generation: String?) throws {
    struct OldFile: Encodable {
      var format = "ripple.keyedstore"
      var version: Int
      var values: [String: FoundationJSON]
      var generation: String?
    }
    struct OldRecord: Encodable { var values: [String: FoundationJSON] }
    struct OldHeader: Encodable {
      var format = "ripple.keyedstore.journal"
      var generation: String
    }
    guard case .object(let values) = Self.values.last else { return }
    let file = PersistedFile(version: 3, values: values, generation: generation)
    let old = OldFile(
      version: 3, values: values.mapValues(FoundationJSON.init), generation: generation)
    #expect(try file.encoded() == FoundationJSON.encoder(pretty: true).encode(old) + [0x0A])
    #expect(try PersistedFile.parse(file.encoded(), path: "p") == file)
    let record = OldRecord(values: values.mapValues(FoundationJSON.init))
    #expect(
      try StoreJournal.recordLine(values) == FoundationJSON.encoder(pretty: false).encode(record)
        + [0x0A])
    #expect(
      try StoreJournal.headerLine(generation: "ab")
        == FoundationJSON.encoder(pretty: false).encode(OldHeader(generation: "ab")) + [0x0A])
  }

  /// A value kept as text is written back as it was; in a journal line, without its line
  /// breaks (whitespace between tokens, since a string cannot hold one raw).
  @Test func aValueKeptAsTextIsWrittenAsItWas() throws {
    let text = "[\n  [\r\n    \"a\\nb\"\n  ]\n]"
    let raw = StoredJSON.raw(RawJSON(text: text, problem: .tooDeep))
    #expect(try writtenText(.object(["k": raw]), pretty: true) == "{\n  \"k\" : \(text)\n}")
    #expect(try writtenText(.object(["k": raw]), pretty: false) == #"{"k":[  [    "a\nb"  ]]}"#)
  }

  static let numbers = [
    "0", "-0", "1", "1.0", "1e2", "1E2", "1.5", "1e-400", "-1e-400", "0e0", "-0.0", "2.50",
    "123456789012345678901234", "-9223372036854775808", "-9223372036854775809",
    "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "1.5e1", "12345678901234567890.0", "9007199254740993.0", "9007199254740993", "1e18", "1e19",
    "1e20", "-1e18", "0.1e1", "100e-2", "9223372036854775807.0", "9223372036854775806.5e0",
    "1.0000000000000000001", "4.9e-324", "2e-324", "-9223372036854775808.0",
    "-9223372036854775807.0", "18446744073709551615.0", "1844674407370955161.5e1", "1e+16",
    "1.2345678901234567e+17", "1e+19", "-1e+19", "1.7976931348623157e+308", "1e-07",
    "0.0000000001", "100000000000000000000", "1" + String(repeating: "0", count: 300),
  ]

  @Test(arguments: numbers)
  func numbersAreReadAsJSONDecoderReadsThem(text: String) throws {
    #expect(try readValue(text) == FoundationJSON.read(text.utf8))
  }

  /// What `JSONEncoder` writes for random doubles and floats reads back as before, and
  /// the encoder's shortcut for a `Double` agrees.
  @Test func randomNumbersAreReadAsJSONDecoderReadsThem() throws {
    var generator = SeededGenerator(state: 43)
    for round in 0..<4_000 {
      var double = Double(bitPattern: generator.next())
      if round % 4 == 1 { double = double.rounded() }
      if round % 4 == 2 { double = Double(Int64(bitPattern: generator.next()) >> (round % 64)) }
      if round % 4 == 3 {
        double = Double(Float(bitPattern: UInt32(truncatingIfNeeded: generator.next())))
      }
      guard double.isFinite else { continue }
      let expected = try FoundationJSON.roundTrip(double)
      #expect(try readValue(FoundationJSON.text(double, pretty: false)) == expected)
      #expect(JSONNumber.value(double) == expected, "\(double)")
    }
  }

  /// Numbers too large for a `Double`, which `JSONDecoder` refused with the whole file.
  @Test(arguments: ["1e400", "-1e400", "1" + String(repeating: "0", count: 400)])
  func aNumberTooLargeIsKeptAsText(text: String) throws {
    #expect(throws: (any Error).self) { try FoundationJSON.read(text.utf8) }
    #expect(
      try readValue("[\(text)]") == .raw(RawJSON(text: "[\(text)]", problem: .numberOutOfRange)))
  }

  static let documents = [
    #"{"a": [1, 2.5, "x", true, false, null], "b": {"c": {}}, "d": []}"#,
    " \n\t\r[1,\n]\r\n ", #"{"a":1,}"#, #"{"a":[1,],}"#, #"{"a":1,"a":"x"}"#,
    #"{"a":{"b":1,"b":2}}"#, "\u{FEFF}\"x\"", #""\u00e9\u0000\/\b\f\n\r\t\"\\""#,
    #""\ud83d\ude00 caf\u00E9""#, "\"\u{7F}é😀\u{2028}\"", #"{"é":1,"e\u0301":2}"#,
  ]

  @Test(arguments: documents)
  func documentsAreReadAsJSONDecoderReadsThem(text: String) throws {
    #expect(try readValue(text) == FoundationJSON.read(text.utf8))
  }

  static let invalid = [
    "", "[", "[,]", "[1,,2]", "{,}", "[1 2]", #"{"a" 1}"#, #"{"a":1 "b":2}"#, "[1]//x",
    "[\u{0B}1]", " \u{FEFF}1", "[1,2,,]", "01", "1.", ".5", "-", "+1", "1e", "NaN", "tru",
    "\"a\tb\"", #""\'""#, #""\u12""#, #""\uZZZZ""#, "[1] x", "[1]\u{0}", "\"abc",
    "{\"a\":1", "[[[[", #"{"a"}"#, #"{1:2}"#,
  ]

  /// Not JSON for either reader: still an error, naming a line and column.
  @Test(arguments: invalid)
  func whatIsNotJSONIsRefused(text: String) throws {
    #expect(throws: (any Error).self) { try FoundationJSON.read(text.utf8) }
    #expect(throws: JSONSyntaxError.self) { try readValue(text) }
  }

  @Test func invalidUTF8IsRefused() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
    ] {
      var reader = JSONReader(bytes)
      #expect(throws: JSONSyntaxError.self) { try reader.readValue(depthLimit: 512) }
    }
  }

  static let surrogates: [(String, String)] = [
    (#""caf\udce9""#, "caf\u{FFFD}"), (#""\ud83d\ude00""#, "😀"), (#""\ud83d""#, "\u{FFFD}"),
    (#""\ud83dx""#, "\u{FFFD}x"), (#""\ude00\ud83d""#, "\u{FFFD}\u{FFFD}"),
    (#""\uD800\uD800\uDC00""#, "\u{FFFD}\u{10000}"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
    (#""\ud83d\n""#, "\u{FFFD}\n"), (#""\ud83d\u0041""#, "\u{FFFD}A"),
  ]

  /// A lone surrogate, which `JSONDecoder` refuses: the replacement character instead.
  @Test(arguments: surrogates)
  func loneSurrogatesReadAsTheReplacementCharacter(text: String, expected: String) throws {
    #expect(try readValue(text) == .string(expected))
  }

  @Test func syntaxErrorsNameTheLineAndColumn() {
    #expect(throws: JSONSyntaxError(line: 3, column: 8, problem: "expected a value")) {
      try readValue("{\n  \"a\": 1,\n  \"b\": x\n}")
    }
    let header = #"{"format":"ripple.keyedstore.journal","generation":"aa"}"#
    let journal = Data((header + "\n" + #"{"values":{}}"# + "\n" + #"{"values":x}"# + "\n").utf8)
    #expect(
      throws: StoreError.corruptFile(path: "j", reason: "line 3, column 11: expected a value")
    ) {
      try StoreJournal.parse(journal, from: 0, generation: "aa", path: "j")
    }
  }

  /// Values as deep as `JSONDecoder` reads are values; deeper ones are kept as text. Read,
  /// compared and written on a 512 KiB stack, 100,000 deep: nothing recurses.
  @Test func deepValuesNeedNoDeepStack() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: #"{"k":["#, count: depth / 2) + "1"
        + String(repeating: "]}", count: depth / 2)
    }
    #expect(try FoundationJSON.read(nested(512).utf8) == readValue(nested(512)))
    onThread {
      let deepest = nested(100_000)
      #expect((try? readValue(deepest)) == .raw(RawJSON(text: deepest, problem: .tooDeep)))
      guard let readable = try? readValue(nested(512)), let same = try? readValue(nested(512))
      else {
        Issue.record("a readable value was refused")
        return
      }
      #expect(readable == same)
      #expect(readable != (try? readValue(nested(510))))
      #expect((try? writtenText(readable, pretty: false)) == nested(512))
      let pretty = (try? writtenText(readable, pretty: true)) ?? ""
      #expect((try? readValue(pretty)) == readable)
    }
  }
}
