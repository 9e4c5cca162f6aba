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
struct PersistedFile: Equatable, Codable, Sendable {
  static let formatName = "ripple.keyedstore"

  var format: String = Self.formatName
  var version: Int
  var values: [String: StoredJSON]
  var generation: String?

  init(version: Int, values: [String: StoredJSON], generation: String? = nil) {
    self.version = version
    self.values = values
    self.generation = generation
  }

  /// Parses a file's bytes.
  ///
  /// - Throws: ``StoreError/corruptFile(path:reason:)`` when the bytes are not a store
  ///   file (empty, truncated, another JSON document).
  static func parse(_ data: Data, path: String) throws(StoreError) -> PersistedFile {
    guard !data.isEmpty else { throw .corruptFile(path: path, reason: "the file is empty") }
    let file: PersistedFile
    do {
      file = try JSONDecoder().decode(PersistedFile.self, from: data)
    } catch {
      throw .corruptFile(path: path, reason: describe(error))
    }
    guard file.format == formatName else {
      throw .corruptFile(path: path, reason: "format is \"\(file.format)\", not \"\(formatName)\"")
    }
    return file
  }

  /// The file's bytes.
  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(self)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}
