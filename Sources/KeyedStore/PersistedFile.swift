#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The contents of a store file: pretty-printed JSON with sorted keys, so that a person
/// can read and diff it.
///
///     {
///       "format" : "ripple.keyedstore",
///       "values" : {
///         "someInt" : 27,
///         "someString" : "hello!"
///       },
///       "version" : 1
///     }
///
/// `version` is the app's schema version (see ``StoreMigration``); `format` names the
/// layout, so that a file of something else is recognised as not a store. A large file
/// also has a `generation`, which names the journal beside it that holds its later
/// changes (see ``StoreJournal``); a file without one has no journal.
///
/// The file is read and written here rather than by `JSONDecoder` and `JSONEncoder`, so
/// that one bad value costs only its key: each value is read on its own (see
/// ``JSONReader``), and one that cannot be read is kept as its text and written back as
/// it was (``StoredJSON/raw(_:)``). Only a file that is not JSON, or not a store file,
/// fails as a whole. The bytes written are those `JSONEncoder` wrote (see ``JSONWriter``).
struct PersistedFile: Equatable, Sendable {
  /// What `format` says in a store file.
  static let formatName = "ripple.keyedstore"

  /// The layout's name: ``formatName``.
  var format: String = Self.formatName
  /// The app's schema version of the values.
  var version: Int
  /// The values, by key name.
  var values: [String: StoredJSON]
  /// The generation of the journal beside the file, if it has one.
  var generation: String?

  /// A file of `values` at schema `version`, with a journal of `generation` if given.
  init(version: Int, values: [String: StoredJSON], generation: String? = nil) {
    self.version = version
    self.values = values
    self.generation = generation
  }

  /// Parses a file's bytes.
  ///
  /// - Throws: ``StoreError/corruptFile(path:reason:)`` when the bytes are not a store
  ///   file (empty, truncated, not JSON, another JSON document); the reason names a line
  ///   and column or a field, never a value.
  /// - Complexity: O(*n*) in the size of the file.
  static func parse(_ data: Data, path: String) throws(StoreError) -> PersistedFile {
    guard !data.isEmpty else { throw .corruptFile(path: path, reason: "the file is empty") }
    var fields: [String: StoredJSON] = [:]
    var values: [String: StoredJSON]?
    do throws(JSONSyntaxError) {
      var reader = JSONReader(Array(data))
      reader.skipByteOrderMark()
      try reader.readObject { name, reader throws(JSONSyntaxError) in
        // Where a name repeats, the first member counts, as in JSONDecoder.
        if name == "values", values == nil, fields[name] == nil,
          reader.nextNonWhitespace == UInt8(ascii: "{")
        {
          values = try readValues(&reader)
        } else {
          let value = try reader.readValue(depthLimit: StoredJSON.readableDepth)
          if fields[name] == nil, name != "values" || values == nil { fields[name] = value }
        }
      }
      try reader.readEnd()
    } catch {
      throw .corruptFile(path: path, reason: error.description)
    }
    let file: PersistedFile
    do throws(FieldError) {
      guard case .string(let format) = try FieldError.required("format", in: fields) else {
        throw FieldError("format is not a string")
      }
      guard case .integer(let number) = try FieldError.required("version", in: fields),
        let version = Int(exactly: number)
      else { throw FieldError("version is not an integer") }
      guard let values else {
        _ = try FieldError.required("values", in: fields)
        throw FieldError("values is not an object")
      }
      var generation: String?
      switch fields["generation"] {
      case nil, .null: break
      case .string(let name): generation = name
      default: throw FieldError("generation is not a string")
      }
      file = PersistedFile(version: version, values: values, generation: generation)
      guard format == formatName else { throw FieldError("format is not \"\(formatName)\"") }
    } catch {
      throw .corruptFile(path: path, reason: error.description)
    }
    return file
  }

  /// Reads the `values` object: each value on its own, so that one that cannot be read is
  /// kept as text rather than failing the file.
  static func readValues(_ reader: inout JSONReader) throws(JSONSyntaxError)
    -> [String: StoredJSON]
  {
    var values: [String: StoredJSON] = [:]
    try reader.readObject { name, reader throws(JSONSyntaxError) in
      let value = try reader.readValue(depthLimit: StoredJSON.readableDepth)
      if values[name] == nil { values[name] = value }
    }
    return values
  }

  /// The file's bytes: pretty-printed, with sorted keys, and a newline at the end.
  ///
  /// - Throws: Nothing for values read or encoded here (they hold no NaN or infinity).
  func encoded() throws -> Data {
    var fields: [String: StoredJSON] = [
      "format": .string(format), "version": .integer(Int64(version)), "values": .object(values),
    ]
    if let generation { fields["generation"] = .string(generation) }
    var writer = JSONWriter(style: .pretty)
    try writer.write(.object(fields))
    var data = Data(writer.bytes)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}

/// A field of a store file or journal line that is missing or of the wrong type. Its text
/// names the field, never the value found.
struct FieldError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }

  /// The field `name` of `fields`.
  ///
  /// - Throws: A `FieldError` when it is missing.
  static func required(_ name: String, in fields: [String: StoredJSON]) throws(FieldError)
    -> StoredJSON
  {
    guard let value = fields[name] else { throw FieldError("missing field \"\(name)\"") }
    return value
  }
}
