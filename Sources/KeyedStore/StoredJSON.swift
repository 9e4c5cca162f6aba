#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One value of a store file, kept as JSON until a typed key asks for it: a store opens
/// a file without knowing the keys' types, so it decodes each value lazily, on the first
/// typed access, and writes back untouched whatever it never decoded.
///
/// Numbers are kept as integers when they are integers, so that an `Int64` survives a
/// round trip exactly. A value is always what `JSONDecoder` would read from the JSON text
/// `JSONEncoder` writes for it (see ``JSONNumber``), so that a value encoded here equals
/// the same value read back from the file, and an unchanged key is never written again.
///
/// A value the file holds but that cannot be read on its own (nested deeper than
/// ``readableDepth``, a number no Swift type holds) is kept as its text (``raw(_:)``):
/// its key reads as `nil`, and the text is written back as it was, so that one bad value
/// costs only its own key.
///
/// Nothing here recurses along a value: equality, writing (``JSONWriter``) and reading
/// (``JSONReader``) keep their own stacks, so a deep value needs no deep thread stack.
enum StoredJSON: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number that fits in an `Int64`: kept exactly, not as a `Double`.
  case integer(Int64)
  /// A whole number above `Int64.max` that fits in a `UInt64`.
  case unsigned(UInt64)
  /// Any other number: finite, with a fraction or beyond the integers' range.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([StoredJSON])
  /// An object; its names are unordered, and written sorted.
  case object([String: StoredJSON])
  /// A value kept as the text the file held, because it cannot be read on its own.
  case raw(RawJSON)

  /// How deep a value read from a file may nest (arrays and objects within each other)
  /// and still be read: what `JSONDecoder` reads, as ``decode(as:)`` hands it the value
  /// alone. A deeper value is kept as ``raw(_:)``.
  static let readableDepth = 512

  /// How deep a value may nest when it is encoded, and how many `encode(to:)` calls may
  /// be under way inside each other: beyond it, encoding throws
  /// ``StoredJSONError/tooDeep(path:limit:)`` instead of overflowing the thread's stack.
  ///
  /// `encode(to:)` recurses along the value, so this bounds the stack an encode needs.
  /// Measured on a thread with a 512 KiB stack (a Dispatch worker's), encoding a
  /// 100,000-deep value: a debug build (what `swift test` runs) uses about 1.4 KiB per
  /// level of a synthesized keyed conformance (`final class Node: Codable { var next:
  /// Node? }`; 1.1 KiB for an unkeyed one) and survives 368 levels; under the thread
  /// sanitizer 1.8 KiB and 271 levels; under the address sanitizer 3.0 KiB and 190 levels
  /// (155 with its fake stacks off). 100 leaves at least half again that margin in each,
  /// for the caller's frames and for conformances with larger frames than synthesized
  /// ones; a release build uses far less. `JSONDecoder` reads up to
  /// ``readableDepth`` levels, so every value encoded here can be read back.
  static let encodingDepthLimit = 100

  /// Encodes a value of a `Codable` key, as `JSONEncoder` with its default strategies
  /// would, without going through JSON text.
  ///
  /// - Throws: ``StoredJSONError/notCodable`` for a value that is not `Encodable`,
  ///   another ``StoredJSONError`` for a value JSON cannot hold (too deep, a NaN or
  ///   infinity, nothing encoded), or what the value's `encode(to:)` threw.
  init(encoding value: any Sendable) throws {
    guard let encodable = value as? any Encodable else { throw StoredJSONError.notCodable }
    self = try StoredJSONEncoder.encode(encodable)
  }

  /// Decodes this JSON as a key's value type.
  ///
  /// - Throws: A `DecodingError`, ``StoredJSONError/notCodable`` for a type that is not
  ///   `Decodable`, or ``StoredJSONError/unreadable(_:)`` for a value kept as text.
  func decode<Value>(as _: Value.Type) throws -> Value {
    guard let decodable = Value.self as? any Decodable.Type else {
      throw StoredJSONError.notCodable
    }
    if case .raw(let raw) = self { throw StoredJSONError.unreadable(raw.problem) }
    var writer = JSONWriter(style: .compact)
    try writer.write(self)
    guard let value = try JSONDecoder().decode(decodable, from: Data(writer.bytes)) as? Value
    else { throw StoredJSONError.notCodable }
    return value
  }
}

/// A value kept as the JSON text a file held, and why it could not be read.
struct RawJSON: Sendable, Equatable {
  /// Why a value was kept as text.
  enum Problem: Sendable, Equatable {
    /// Arrays and objects nested deeper than ``StoredJSON/readableDepth``.
    case tooDeep
    /// A number too large for a `Double` (or any other Swift number type).
    case numberOutOfRange
  }

  /// The value's JSON text, exactly as the file held it.
  var text: String
  /// Why it could not be read.
  var problem: Problem
}

/// Values are compared as JSON, so that a store tells a changed key from an unchanged one.
extension StoredJSON: Equatable {
  /// Whether two values are the same JSON, compared with a stack of its own rather than
  /// by recursion, so that comparing deep values needs no deep thread stack.
  ///
  /// - Complexity: O(*n*), where *n* is the number of values nested in the smaller one.
  static func == (lhs: StoredJSON, rhs: StoredJSON) -> Bool {
    var pending: [(StoredJSON, StoredJSON)] = []
    var pair = (lhs, rhs)
    while true {
      switch pair {
      case (.null, .null): break
      case (.bool(let left), .bool(let right)): guard left == right else { return false }
      case (.integer(let left), .integer(let right)): guard left == right else { return false }
      case (.unsigned(let left), .unsigned(let right)): guard left == right else { return false }
      case (.double(let left), .double(let right)): guard left == right else { return false }
      case (.string(let left), .string(let right)): guard left == right else { return false }
      case (.raw(let left), .raw(let right)): guard left == right else { return false }
      case (.array(let left), .array(let right)):
        guard left.count == right.count else { return false }
        pending.append(contentsOf: zip(left, right))
      case (.object(let left), .object(let right)):
        guard left.count == right.count else { return false }
        for (name, value) in left {
          guard let other = right[name] else { return false }
          pending.append((value, other))
        }
      default: return false
      }
      guard let next = pending.popLast() else { return true }
      pair = next
    }
  }
}

/// Why a value could not cross between JSON and its type. Its descriptions name coding
/// paths and kinds, never a value, so that no error text carries a stored value.
enum StoredJSONError: Error, Equatable, CustomStringConvertible {
  /// The value type is not `Codable`.
  case notCodable
  /// A value kept as text because it cannot be read (see ``RawJSON``).
  case unreadable(RawJSON.Problem)
  /// A value nested deeper than `limit`, at `path` (abbreviated when long).
  case tooDeep(path: String, limit: Int)
  /// A NaN or an infinity, which JSON cannot hold, at `path`.
  case nonFiniteNumber(path: String)
  /// A top-level value whose `encode(to:)` encoded nothing.
  case nothingEncoded(type: String)
  /// An `encode(to:)` that encoded twice through one single-value container, or asked
  /// for a container of another kind than the one it already filled, at `path`.
  case conflictingEncoding(path: String)

  /// What went wrong, without the value.
  var description: String {
    switch self {
    case .notCodable: "the value type is not Codable"
    case .unreadable(.tooDeep):
      "the stored value is nested deeper than \(StoredJSON.readableDepth) levels, more than "
        + "JSONDecoder reads; it is kept in the file as it is"
    case .unreadable(.numberOutOfRange):
      "the stored value holds a number too large for any Swift number type; it is kept in the "
        + "file as it is"
    case .tooDeep(let path, let limit): "the value nests deeper than \(limit) levels, at \(path)"
    case .nonFiniteNumber(let path): "a NaN or infinite number, which JSON cannot hold, at \(path)"
    case .nothingEncoded(let type): "the top-level \(type) encoded nothing"
    case .conflictingEncoding(let path):
      "encode(to:) encoded two values, or two kinds of container, at \(path)"
    }
  }
}

/// A short, readable account of a coding error, for ``StoreError`` descriptions: the kind
/// of failure and the coding path, never a value. `debugDescription`s are left out (the
/// decoder's quote numbers and characters of the JSON; a type's own may quote anything),
/// and so is the text of an error of a type this module does not know.
func describe(_ error: any Error) -> String {
  switch error {
  case DecodingError.typeMismatch(let type, let context):
    "expected \(type) at \(describePath(context.codingPath))"
  case DecodingError.valueNotFound(let type, let context):
    "no \(type) at \(describePath(context.codingPath))"
  case DecodingError.keyNotFound(let key, let context):
    "missing field \"\(key.stringValue)\" at \(describePath(context.codingPath))"
  case DecodingError.dataCorrupted(let context):
    "the data at \(describePath(context.codingPath)) is not valid for its type"
  case EncodingError.invalidValue(let value, let context):
    "a \(type(of: value)) at \(describePath(context.codingPath)) could not be encoded"
  case let error as StoredJSONError: error.description
  case let error as JSONSyntaxError: error.description
  case let error as StoreError: error.description
  default: "an error of type \(type(of: error)) was thrown"
  }
}

/// A coding path as text: field names joined by dots, array indices as `[3]`, and a
/// dictionary's keys (which are data, like its values) as `[…]`. A long path keeps its
/// first and last components.
func describePath(_ codingPath: [any CodingKey]) -> String {
  guard !codingPath.isEmpty else { return "the top level" }
  func component(_ key: any CodingKey) -> String {
    if let index = key.intValue, key.stringValue == "Index \(index)" { return "[\(index)]" }
    // The standard library's and Foundation's own key types (underscored) carry
    // dictionary keys; "super" is `superEncoder()`'s.
    if key.stringValue != "super", "\(type(of: key))".hasPrefix("_") { return "[…]" }
    return key.stringValue
  }
  let shown =
    codingPath.count <= 8
    ? codingPath.map(component)
    : codingPath.prefix(4).map(component) + ["… (\(codingPath.count) levels) …"]
      + codingPath.suffix(2).map(component)
  return shown.joined(separator: ".")
}
