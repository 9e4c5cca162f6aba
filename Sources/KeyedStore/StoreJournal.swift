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
enum StoreJournal {
  static let formatName = "ripple.keyedstore.journal"

  /// The journal's first line.
  struct Header: Codable, Equatable {
    var format: String = StoreJournal.formatName
    var generation: String
  }

  /// One write: the keys it changed.
  struct Record: Codable, Equatable {
    var values: [String: StoredJSON]
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
  static func parse(_ data: Data, from offset: Int, generation: String?, path: String)
    throws(StoreError) -> Contents
  {
    var lines: [Range<Int>] = []
    var start = data.startIndex
    while let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(start..<newline)
      start = newline + 1
    }
    let end = offset + (start - data.startIndex)
    var contents = Contents(header: nil, records: [], end: end)
    var recordLines = lines[...]
    if offset == 0, let first = lines.first {
      recordLines = lines.dropFirst()
      do {
        contents.header = try JSONDecoder().decode(Header.self, from: data[first])
      } catch {
        throw .corruptFile(path: path, reason: "line 1: \(describe(error))")
      }
      guard contents.header?.format == formatName else {
        throw .corruptFile(path: path, reason: "line 1 is not a journal header")
      }
      guard contents.header?.generation == generation else { return contents }
    }
    guard !recordLines.isEmpty else { return contents }
    // One decode for every record (a journal may hold thousands); line by line only to
    // name the line that fails.
    var joined = Data([UInt8(ascii: "[")])
    joined.reserveCapacity(end - offset + 2)
    for (number, line) in recordLines.enumerated() {
      if number > 0 { joined.append(UInt8(ascii: ",")) }
      joined.append(data[line])
    }
    joined.append(UInt8(ascii: "]"))
    if let records = try? JSONDecoder().decode([Record].self, from: joined) {
      contents.records = records.map(\.values)
      return contents
    }
    for (number, line) in recordLines.enumerated() {
      do {
        contents.records.append(try JSONDecoder().decode(Record.self, from: data[line]).values)
      } catch {
        // Line numbers are known when the read started at the beginning.
        let byte = offset + (line.lowerBound - data.startIndex)
        let place = offset == 0 ? "line \(number + 2)" : "the line at byte \(byte)"
        throw .corruptFile(path: path, reason: "\(place): \(describe(error))")
      }
    }
    return contents
  }

  /// The header line, with its newline.
  static func headerLine(generation: String) throws -> Data {
    try line(Header(generation: generation))
  }

  /// A record line, with its newline.
  static func recordLine(_ values: [String: StoredJSON]) throws -> Data {
    try line(Record(values: values))
  }

  /// One value as a single line of JSON (compact JSON has no raw newline: those in
  /// strings are escaped), ending in a newline.
  private static func line(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(value)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}
