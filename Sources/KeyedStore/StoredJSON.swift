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
/// round trip exactly.
enum StoredJSON: Sendable, Equatable, Codable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case double(Double)
  case string(String)
  case array([StoredJSON])
  case object([String: StoredJSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsigned(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([String: StoredJSON].self) {
      self = .object(value)
    } else {
      self = .array(try container.decode([StoredJSON].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .unsigned(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// Encodes a value of a `Codable` key.
  ///
  /// - Throws: An `EncodingError`, or ``StoredJSONError/notCodable`` for a value that
  ///   is not `Encodable`.
  init(encoding value: any Sendable) throws {
    guard let encodable = value as? any Encodable else { throw StoredJSONError.notCodable }
    let data = try JSONEncoder().encode(encodable)
    self = try JSONDecoder().decode(StoredJSON.self, from: data)
  }

  /// Decodes this JSON as a key's value type.
  ///
  /// - Throws: A `DecodingError`, or ``StoredJSONError/notCodable`` for a type that is
  ///   not `Decodable`.
  func decode<Value>(as _: Value.Type) throws -> Value {
    guard let decodable = Value.self as? any Decodable.Type else {
      throw StoredJSONError.notCodable
    }
    let data = try JSONEncoder().encode(self)
    guard let value = try JSONDecoder().decode(decodable, from: data) as? Value else {
      throw StoredJSONError.notCodable
    }
    return value
  }
}

/// Why a value could not cross between JSON and its type.
enum StoredJSONError: Error, CustomStringConvertible {
  case notCodable

  var description: String { "the value type is not Codable" }
}

/// A short, readable account of a coding error, for ``StoreError`` descriptions.
func describe(_ error: any Error) -> String {
  switch error {
  case DecodingError.typeMismatch(let type, let context):
    "expected \(type) at \(path(context.codingPath)): \(context.debugDescription)"
  case DecodingError.valueNotFound(let type, let context):
    "no \(type) at \(path(context.codingPath))"
  case DecodingError.keyNotFound(let key, let context):
    "missing field \"\(key.stringValue)\" at \(path(context.codingPath))"
  case DecodingError.dataCorrupted(let context):
    context.debugDescription
  default:
    "\(error)"
  }
}

private func path(_ codingPath: [any CodingKey]) -> String {
  codingPath.isEmpty ? "the top level" : codingPath.map(\.stringValue).joined(separator: ".")
}
