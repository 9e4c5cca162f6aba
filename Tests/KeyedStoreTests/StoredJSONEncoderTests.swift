import Foundation
import ModelTesting
import Testing

@testable import KeyedStore

@Suite struct StoredJSONEncoderTests {
  /// Encoded directly, a value is what `JSONDecoder` read back from `JSONEncoder`'s
  /// text; a value `JSONEncoder` refuses (or whose text `JSONDecoder` refuses) is refused.
  @Test(arguments: EncoderSample.allCases)
  func theEncoderMatchesJSONEncoderThenJSONDecoder(sample: EncoderSample) throws {
    let reference = Result { try FoundationJSON.roundTrip(sample.value) }
    let encoded = Result { try StoredJSON(encoding: sample.value) }
    switch (reference, encoded) {
    case (.success(let expected), .success(let actual)): #expect(actual == expected)
    case (.failure, .failure(let error)): #expect(error is StoredJSONError)
    default: Issue.record("JSONEncoder: \(reference); StoredJSONEncoder: \(encoded)")
    }
  }

  /// Encoding through a migration step wraps the value: the same encoder, one level.
  @Test func aValueAsDeepAsTheLimitEncodesAndOneLevelMoreIsRefused() throws {
    let limit = StoredJSON.encodingDepthLimit
    #expect(
      try StoredJSON(encoding: Nested(depth: limit - 1))
        == FoundationJSON.roundTrip(Nested(depth: limit - 1)))
    #expect(throws: StoredJSONError.self) { try StoredJSON(encoding: Nested(depth: limit)) }
  }

  /// Too deep without recursing: nested containers asked for in a loop, and a chain of
  /// single-value wrappers that recurses without containers.
  @Test func tooDeepIsRefusedHoweverTheDepthIsReached() {
    struct Loop: Encodable, Sendable {
      enum Key: CodingKey { case next }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for _ in 0..<1_000 {
          container = container.nestedContainer(keyedBy: Key.self, forKey: .next)
        }
      }
    }
    struct Wrapper: Encodable, Sendable {
      var depth: Int
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try depth == 0 ? container.encode(0) : container.encode(Wrapper(depth: depth - 1))
      }
    }
    onThread {
      #expect(throws: StoredJSONError.self) { try StoredJSON(encoding: Loop()) }
      #expect(throws: StoredJSONError.self) { try StoredJSON(encoding: Wrapper(depth: 100_000)) }
      #expect((try? StoredJSON(encoding: Wrapper(depth: 50))) == .integer(0))
    }
  }

  /// `final class Node: Codable { var next: Node? }`, 100,000 deep, on a thread with a
  /// 512 KiB stack: a thrown error, not a crash. The chain is built and torn down a link
  /// at a time (releasing it whole would recurse too).
  @Test func aHundredThousandNodesThrowOnASmallStack() {
    onThread {
      let head = Node()
      var tail = head
      for _ in 1..<100_000 {
        let next = Node()
        tail.next = next
        tail = next
      }
      #expect {
        try StoredJSON(encoding: head)
      } throws: { error in
        guard case .tooDeep(let path, let limit) = error as? StoredJSONError else { return false }
        return limit == StoredJSON.encodingDepthLimit && path.hasPrefix("next.next")
      }
      var link = head.next
      head.next = nil
      while let current = link {
        link = current.next
        current.next = nil
      }
    }
  }

  /// Error texts name kinds and coding paths, never values: not a value `EncodingError`
  /// or `DecodingError` carries, not their debug descriptions, not a dictionary's keys.
  @Test func describingAnErrorQuotesNoValue() {
    let secret = "SECRET-77"
    struct Quoting: Error { let text: String }
    let path: [any CodingKey] = [
      StoredJSONKey(stringValue: "field"), StoredJSONKey(intValue: 3), StoredJSONKey.superKey,
    ]
    let context = EncodingError.Context(codingPath: path, debugDescription: secret)
    let errors: [any Error] = [
      EncodingError.invalidValue(secret, context),
      DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: secret)),
      DecodingError.typeMismatch(Int.self, .init(codingPath: path, debugDescription: secret)),
      Quoting(text: secret),
    ]
    for error in errors {
      #expect(!describe(error).contains(secret))
      #expect(describe(error).contains("field.[3].super") || error is Quoting)
    }
    let keyed = Result { try StoredJSON(encoding: [secret: [Double.nan]]) }
    guard case .failure(let error) = keyed else {
      Issue.record("a NaN was encoded")
      return
    }
    #expect(describe(error) == "a NaN or infinite number, which JSON cannot hold, at […].[0]")
  }
}

// The values and types the encoder is checked on.
extension StoredJSONEncoderTests {
  /// A linked list, the usual deep `Codable` value.
  final class Node: Codable, @unchecked Sendable {
    var next: Node?
  }

  /// A class that encodes its superclass through `superEncoder()`.
  class Base: Codable, @unchecked Sendable {
    var id = 7
  }

  final class Derived: Base, @unchecked Sendable {
    var name = "derived"
    enum CodingKeys: CodingKey { case name }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try super.encode(to: container.superEncoder())
    }
  }

  /// Every way `encode(to:)` can reach an encoder: keyed, unkeyed and single-value
  /// containers, nested ones, super-encoders, nil, and a value that encodes nothing.
  struct EveryContainer: Encodable, Sendable {
    enum Key: CodingKey { case a, b, c, d, e, f }
    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }

    func encode(to encoder: any Encoder) throws {
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encodeNil(forKey: .a)
      try keyed.encodeIfPresent(Int?.none, forKey: .b)
      try keyed.encodeIfPresent(Int8?.some(-8), forKey: .c)
      var nested = keyed.nestedUnkeyedContainer(forKey: .d)
      try nested.encode(UInt16(16))
      try nested.encodeNil()
      try nested.encode(Nothing())
      var deeper = nested.nestedContainer(keyedBy: Key.self)
      try deeper.encode(Float(0.1), forKey: .a)
      _ = nested.superEncoder()
      var single = nested.superEncoder().singleValueContainer()
      try single.encode("through super")
      var again = keyed.nestedUnkeyedContainer(forKey: .d)
      try again.encode(true)
      _ = keyed.superEncoder()
      var named = keyed.superEncoder(forKey: .e).container(keyedBy: Key.self)
      try named.encode(UInt32(32), forKey: .f)
      try keyed.encode(Nothing(), forKey: .f)
      var reused = encoder.container(keyedBy: Key.self)
      try reused.encode(Int32(-32), forKey: .b)
    }
  }

  enum Color: String, Codable, CodingKeyRepresentable, Sendable { case red, green }
  struct Point: Codable, Hashable, Sendable {
    var x: Int
    var y: Double
  }
  enum Shape: Codable, Sendable {
    case circle(radius: Double)
    case polygon([Point], closed: Bool)
    case empty
  }
  struct NothingAtAll: Encodable, Sendable { func encode(to encoder: any Encoder) throws {} }

  /// The values the encoder is checked on, against `JSONEncoder` then `JSONDecoder`.
  enum EncoderSample: String, CaseIterable, Sendable {
    case integers, unsignedMaximum, wideIntegers, doubles, floats, strings, data, date, url
    case decimals, dictionaries, enumKeyedDictionary, structKeyedDictionary, optionals
    case everyContainer, inheritance, enumsWithPayloads, topLevelNil, topLevelData, nested50
    case nan, infinity, floatNaN, decimalNaN, nothingAtTheTopLevel

    var value: any Encodable & Sendable {
      switch self {
      case .integers: [Int.min, -1, 0, Int(Int8.max), Int(Int16.min), Int(Int32.max), Int.max]
      case .unsignedMaximum: [UInt64.max, UInt64(Int64.max) + 1, 0]
      case .wideIntegers: [Int128(5), Int128.min, -Int128(UInt64.max), Int128(UInt64.max) + 1]
      case .doubles:
        [
          0.1, 1e-7, 1e300, -0.0, 2.5, 100, 1e16, 9_007_199_254_740_992, 1.2345678901234567e17,
          1e19, 1.8446744073709552e19, 1e20, -1e19, .leastNonzeroMagnitude,
          .greatestFiniteMagnitude,
        ]
      case .floats: [Float(0.1), 1e-7, 3, 1e10, 16_777_216, .greatestFiniteMagnitude, -0.0]
      case .strings: [JSONFormatTests.everyCharacter, "", "e\u{301}"]
      case .data: [Data(), Data([1, 2, 3, 250]), Data(repeating: 0xFF, count: 100)]
      case .date: [Date(timeIntervalSinceReferenceDate: 12.5), Date(timeIntervalSince1970: 0)]
      case .url: [URL(string: "https://a.b/c?d=e#f")!, URL(string: "https://x.y/a b")!]
      case .decimals:
        [
          Decimal(string: "3.14159")!, Decimal(string: "1e-10")!,
          Decimal(string: "100000000000000000000")!,
          Decimal(string: "-0.5")!, Decimal(0),
        ]
      case .dictionaries: [["b": [1: "one", 10: "ten", 2: "two"]], ["a": [:]]]
      case .enumKeyedDictionary: [Color.red: 1, .green: 2]
      case .structKeyedDictionary: [Point(x: 1, y: 2): "p"]
      case .optionals: [Int?.none, 3, nil]
      case .everyContainer: EveryContainer()
      case .inheritance: [Derived()]
      case .enumsWithPayloads:
        [Shape.circle(radius: 1.5), .polygon([Point(x: 1, y: 0.5)], closed: true), .empty]
      case .topLevelNil: String?.none
      case .topLevelData: Data("top".utf8)
      case .nested50: (0..<50).reduce(Nested(depth: 0)) { _, level in Nested(depth: level) }
      case .nan: [1, Double.nan]
      case .infinity: ["k": -Double.infinity]
      case .floatNaN: Float.nan
      case .decimalNaN: Decimal.nan
      case .nothingAtTheTopLevel: NothingAtAll()
      }
    }
  }
}
