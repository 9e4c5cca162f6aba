#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value a store holds as JSON, for a key that no typed key has used in this store yet:
/// a key another process wrote to the file, say, whose name the app learns at run time.
///
///     for key in store.listedKeys where key.valueTypeName == nil {
///         let enabled = try key.untypedValue?.decode(as: Bool.self)
///     }
///
/// Using the name with a typed key (`StoreKey<Bool>(name)`) binds it to that type, as any
/// first use does; from then on the typed key reads the value.
public struct UntypedValue: Sendable, Hashable, CustomStringConvertible {
  /// The value as compact JSON text, keys sorted.
  public let json: String

  init(_ stored: StoredJSON) {
    json = stored.compactText
  }

  /// Decodes the value as `type`, as a typed key of that type would.
  ///
  /// - Parameter type: The type to decode.
  /// - Returns: The decoded value.
  /// - Throws: A `DecodingError` when the JSON is not a `type`.
  public func decode<Value: Decodable>(as type: Value.Type) throws -> Value {
    try JSONDecoder().decode(type, from: Data(json.utf8))
  }

  /// The JSON text.
  public var description: String { json }
}

/// One key a store holds a value for, as ``Store/listedKeys`` lists it.
public struct ListedKey: Sendable, Hashable {
  /// The key's name.
  public let name: String
  /// The name of the value type a typed key bound the name to in this store (`"Bool"`),
  /// or `nil` when no typed key has used it yet.
  public let valueTypeName: String?
  /// The value as JSON, when no typed key has used the name yet (what the store's file
  /// holds for it); `nil` for a bound key, whose typed key reads it.
  public let untypedValue: UntypedValue?
}

extension StoredJSON {
  /// Compact JSON text with sorted keys: what ``UntypedValue`` shows.
  var compactText: String {
    var writer = JSONWriter(style: .compact)
    do {
      try writer.write(self)
    } catch {
      return "null"  // a NaN or infinity, which no value read from a file holds
    }
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}
