#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The journal beside a large store file, `<name>.journal`: JSON Lines that record the
/// changes written since the store file was last rewritten, so that a write costs what
/// changed rather than the whole file.
///
///     {"format":"ripple.keyedstore.journal","generation":"6d0c2f9a41b7e385"}
///     {"values":{"launchCount":4}}
///     {"values":{"launchCount":5,"profile":{"age":37,"name":"Ada"}}}
///
/// The first line names the generation of the store file it belongs to (the file's
/// `"generation"`); each later line is one write: the keys it changed and their new
/// values, applied in order over the file's values. A journal of another generation is
/// stale — the store file was rewritten with its records already in it — and is ignored.
/// The bytes after the last newline are a write cut short (the writer was killed), and
/// are ignored too; a whole line that does not parse is corruption.
///
/// Lines are read and written here rather than by `JSONDecoder` and `JSONEncoder`, as the
/// store file is (see ``PersistedFile``): a value that cannot be read on its own is kept
/// as its text, and costs only its key.
enum StoreJournal {
  /// What `format` says in a journal's header.
  static let formatName = "ripple.keyedstore.journal"

  /// The journal's first line.
  struct Header: Equatable {
    /// The layout's name: ``StoreJournal/formatName``.
    var format: String = StoreJournal.formatName
    /// The generation of the store file the journal belongs to.
    var generation: String
  }

  /// What a read of the journal found.
  struct Contents: Equatable {
    /// The header, when the read started at the beginning and found a whole first line.
    var header: Header?
    /// The records of the whole lines read, in order.
    var records: [[String: StoredJSON]]
    /// The offset just after the last whole line: where the next read starts, and where
    /// the next append goes (a cut-short tail is truncated first).
    var end: Int
  }

  /// The journal of the store file at `path`.
  static func path(for path: String) -> String { path + ".journal" }

  /// A fresh generation name: 16 hex digits, random, so that a store file restored from a
  /// backup never matches a journal written since.
  static func newGeneration() -> String {
    let value = UInt64.random(in: 0...UInt64.max)
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Parses the whole lines of `data`, which holds the journal's bytes from `offset` on.
  ///
  /// - Parameters:
  ///   - data: The bytes read.
  ///   - offset: Where in the journal they start: 0 reads the header first.
  ///   - generation: The store file's generation. Read from 0, a journal of another one
  ///     is stale, and its records are not parsed.
  ///   - path: The journal's path, for errors.
  /// - Returns: The header (when `offset` is 0), the records, and the offset after the
  ///   last whole line.
  /// - Throws: ``StoreError/corruptFile(path:reason:)`` naming the journal and the line
  ///   when a whole line is not a header or record.
  /// - Complexity: O(*n*) in the size of `data`.
  static func parse(_ data: Data, from offset: Int, generation: String?, path: String)
    throws(StoreError) -> Contents
  {
    let bytes = Array(data)
    var lines: [Range<Int>] = []
    var start = 0
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(start..<newline)
      start = newline + 1
    }
    var contents = Contents(header: nil, records: [], end: offset + start)
    var recordLines = lines[...]
    if offset == 0, let first = lines.first {
      recordLines = lines.dropFirst()
      do {
        contents.header = try header(bytes, in: first)
      } catch {
        throw .corruptFile(path: path, reason: reason("line 1", error))
      }
      guard contents.header?.generation == generation else { return contents }
    }
    contents.records.reserveCapacity(recordLines.count)
    for (number, line) in recordLines.enumerated() {
      do {
        contents.records.append(try record(bytes, in: line))
      } catch {
        // Line numbers are known when the read started at the beginning.
        let place =
          offset == 0 ? "line \(number + 2)" : "the line at byte \(offset + line.lowerBound)"
        throw .corruptFile(path: path, reason: reason(place, error))
      }
    }
    return contents
  }

  /// Why the line at `place` failed: with the column of a syntax error (its line is the
  /// journal's, not the one the error counted within the line).
  private static func reason(_ place: String, _ error: any Error) -> String {
    guard let error = error as? JSONSyntaxError else { return "\(place): \(error)" }
    return "\(place), column \(error.column): \(error.problem)"
  }

  /// Parses the header line `bytes[line]`.
  ///
  /// - Throws: A ``JSONSyntaxError`` or ``FieldError``.
  private static func header(_ bytes: [UInt8], in line: Range<Int>) throws -> Header {
    var fields: [String: StoredJSON] = [:]
    var reader = JSONReader(bytes, in: line)
    reader.skipByteOrderMark()
    try reader.readObject { name, reader throws(JSONSyntaxError) in
      let value = try reader.readValue(depthLimit: StoredJSON.readableDepth)
      if fields[name] == nil { fields[name] = value }
    }
    try reader.readEnd()
    guard case .string(let format) = try FieldError.required("format", in: fields) else {
      throw FieldError("format is not a string")
    }
    guard case .string(let generation) = try FieldError.required("generation", in: fields) else {
      throw FieldError("generation is not a string")
    }
    guard format == formatName else { throw FieldError("it is not a journal header") }
    return Header(generation: generation)
  }

  /// Parses the record line `bytes[line]`: its `values`, each read on its own.
  ///
  /// - Throws: A ``JSONSyntaxError`` or ``FieldError``.
  private static func record(_ bytes: [UInt8], in line: Range<Int>) throws
    -> [String: StoredJSON]
  {
    var values: [String: StoredJSON]?
    var isObject = true
    var reader = JSONReader(bytes, in: line)
    reader.skipByteOrderMark()
    try reader.readObject { name, reader throws(JSONSyntaxError) in
      guard name == "values", values == nil, isObject else {
        _ = try reader.readValue(depthLimit: StoredJSON.readableDepth)
        return
      }
      if reader.nextNonWhitespace == UInt8(ascii: "{") {
        values = try PersistedFile.readValues(&reader)
      } else {
        _ = try reader.readValue(depthLimit: StoredJSON.readableDepth)
        isObject = false
      }
    }
    try reader.readEnd()
    guard isObject else { throw FieldError("values is not an object") }
    guard let values else { throw FieldError("missing field \"values\"") }
    return values
  }

  /// The header line, with its newline.
  static func headerLine(generation: String) throws -> Data {
    try line(["format": .string(formatName), "generation": .string(generation)])
  }

  /// A record line, with its newline.
  static func recordLine(_ values: [String: StoredJSON]) throws -> Data {
    try line(["values": .object(values)])
  }

  /// An object as a single line of JSON (compact JSON has no raw newline: those in
  /// strings are escaped, those in a value kept as text dropped), ending in a newline.
  private static func line(_ object: [String: StoredJSON]) throws -> Data {
    var writer = JSONWriter(style: .compact)
    try writer.write(.object(object))
    var data = Data(writer.bytes)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}
