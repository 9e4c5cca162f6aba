import Foundation
import Testing

@testable import KeyedStore

/// A ``StoredJSON`` through Foundation, as the store read and wrote values before it had
/// a reader, writer and encoder of its own: the reference they are checked against.
///
/// Reading is `JSONDecoder` trying `Bool`, `Int64`, `UInt64`, `Double`, `String`, an
/// object and an array in turn; writing is `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` (and `.prettyPrinted` for a store file). Both recurse: only
/// for shallow values, on a test's own thread.
struct FoundationJSON: Codable {
  var value: StoredJSON

  init(_ value: StoredJSON) {
    self.value = value
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      value = .null
    } else if let bool = try? container.decode(Bool.self) {
      value = .bool(bool)
    } else if let integer = try? container.decode(Int64.self) {
      value = .integer(integer)
    } else if let unsigned = try? container.decode(UInt64.self) {
      value = .unsigned(unsigned)
    } else if let double = try? container.decode(Double.self) {
      value = .double(double)
    } else if let string = try? container.decode(String.self) {
      value = .string(string)
    } else if let object = try? container.decode([String: FoundationJSON].self) {
      value = .object(object.mapValues(\.value))
    } else {
      value = .array(try container.decode([FoundationJSON].self).map(\.value))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch value {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .integer(let integer): try container.encode(integer)
    case .unsigned(let unsigned): try container.encode(unsigned)
    case .double(let double): try container.encode(double)
    case .string(let string): try container.encode(string)
    case .array(let items): try container.encode(items.map(FoundationJSON.init))
    case .object(let members): try container.encode(members.mapValues(FoundationJSON.init))
    case .raw: throw StoredJSONError.notCodable
    }
  }

  /// What `JSONDecoder` reads from `text`.
  static func read(_ text: some Collection<UInt8>) throws -> StoredJSON {
    try JSONDecoder().decode(FoundationJSON.self, from: Data(text)).value
  }

  /// What `JSONDecoder` reads back from what `JSONEncoder` writes for `value`.
  static func roundTrip(_ value: some Encodable) throws -> StoredJSON {
    try read(JSONEncoder().encode(value))
  }

  /// The encoder the store used to write with.
  static func encoder(pretty: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty
      ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      : [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// What `JSONEncoder` writes for `value`.
  static func text(_ value: some Encodable, pretty: Bool) throws -> String {
    String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
  }
}

/// What `JSONWriter` writes for `value`.
func writtenText(_ value: StoredJSON, pretty: Bool) throws -> String {
  var writer = JSONWriter(style: pretty ? .pretty : .compact)
  try writer.write(value)
  return String(decoding: writer.bytes, as: UTF8.self)
}

/// What `JSONReader` reads from `text`, as one value.
func readValue(_ text: String, depthLimit: Int = StoredJSON.readableDepth) throws -> StoredJSON {
  var reader = JSONReader(Array(text.utf8))
  reader.skipByteOrderMark()
  let value = try reader.readValue(depthLimit: depthLimit)
  try reader.readEnd()
  return value
}
