/// A journal built from fuzz input, and what reading it must give: record lines whose
/// string values are made of `\uXXXX` escapes (lone and paired surrogates among them),
/// short escapes and raw UTF-8, so that the fuzzer explores the reader's string escapes
/// rather than JSON syntax, which `FuzzStoreFile` covers.
///
/// Each line of the input (up to a newline) is one record, `{"values":{"<key>":"…"}}`:
/// its first byte picks the key, and each later byte is one piece of the string:
///
///     h X Y   a high surrogate escape, \uD800 + (XY & 0x3FF)
///     l X Y   a low surrogate escape, \uDC00 + (XY & 0x3FF)
///     u X Y   any escape, \uXXYY
///     e X     a short escape (\" \\ \/ \b \f \n \r \t, by X)
///     !       the rest of the line, as it is, instead of a record (may not be JSON)
///     other   that character raw (printable ASCII), a raw non-ASCII scalar picked by the
///             byte (0x80 and up), or a control character as \u00XX
///
/// A line of the input starting with `~` is written without its newline when it comes
/// last: a write cut short, which the reader ignores.
struct JournalInput {
  /// The keys the records set, read back as `String`s.
  static let keys = ["a-text", "b-text", "name-text", "count-text"]
  /// Non-ASCII scalars written raw.
  static let rawScalars: [Unicode.Scalar] = [
    "é", "😀", "\u{2028}", "中", "\u{7F}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "ß",
  ]

  /// The journal's bytes after its header line.
  var records: [UInt8] = []
  /// The value each key must read as: the last record's, its escapes decoded and each
  /// lone surrogate read as U+FFFD.
  var expected: [String: String] = [:]
  /// Whether a line was written as the input gave it, so that the journal may not parse.
  var hasRawLine = false

  /// The journal `input` describes.
  init(_ input: [UInt8]) {
    var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    for (number, line) in lines.enumerated() {
      guard let first = line.first else { continue }
      let isCutShort = first == UInt8(ascii: "~") && number == lines.count - 1
      let key = Self.keys[Int(first) % Self.keys.count]
      let (json, value, rawLine) = Self.string(line.dropFirst())
      if let rawLine {
        records.append(contentsOf: rawLine)
        hasRawLine = true
      } else {
        records.append(contentsOf: #"{"values":{"\#(key)":"#.utf8)
        records.append(contentsOf: json)
        records.append(contentsOf: "}}".utf8)
        if !isCutShort { expected[key] = value }
      }
      if !isCutShort { records.append(UInt8(ascii: "\n")) }
    }
  }

  /// A JSON string from `pieces`, and the string it reads as; or, at a `!` piece, the
  /// rest of the pieces, to be written as the line.
  static func string(_ pieces: ArraySlice<UInt8>) -> (
    json: [UInt8], value: String, rawLine: ArraySlice<UInt8>?
  ) {
    var json: [UInt8] = [UInt8(ascii: "\"")]
    // What the string holds, as UTF-16 code units: decoding them repairs each lone
    // surrogate as U+FFFD, as the store's reader does.
    var units: [UInt16] = []
    var index = pieces.startIndex
    func nextByte() -> UInt8 {
      guard index < pieces.endIndex else { return 0 }
      defer { index += 1 }
      return pieces[index]
    }
    func escape(_ unit: UInt16) {
      let hex = Array("0123456789abcdef".utf8)
      json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
      for shift in [12, 8, 4, 0] { json.append(hex[Int(unit >> UInt16(shift)) & 0xF]) }
      units.append(unit)
    }
    while index < pieces.endIndex {
      let byte = nextByte()
      switch byte {
      case UInt8(ascii: "!"): return ([], "", pieces[index...])
      case UInt8(ascii: "h"):
        escape(0xD800 | (UInt16(nextByte()) << 8 | UInt16(nextByte())) & 0x3FF)
      case UInt8(ascii: "l"):
        escape(0xDC00 | (UInt16(nextByte()) << 8 | UInt16(nextByte())) & 0x3FF)
      case UInt8(ascii: "u"): escape(UInt16(nextByte()) << 8 | UInt16(nextByte()))
      case UInt8(ascii: "e"):
        let escapes: [(UInt8, UInt16)] = [
          (UInt8(ascii: "\""), 0x22), (UInt8(ascii: "\\"), 0x5C), (UInt8(ascii: "/"), 0x2F),
          (UInt8(ascii: "b"), 0x08), (UInt8(ascii: "f"), 0x0C), (UInt8(ascii: "n"), 0x0A),
          (UInt8(ascii: "r"), 0x0D), (UInt8(ascii: "t"), 0x09),
        ]
        let (letter, unit) = escapes[Int(nextByte()) % escapes.count]
        json.append(contentsOf: [UInt8(ascii: "\\"), letter])
        units.append(unit)
      case 0..<0x20: escape(UInt16(byte))
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape(UInt16(byte))
      case 0x20..<0x80:
        json.append(byte)
        units.append(UInt16(byte))
      default:
        let scalar = rawScalars[Int(byte) % rawScalars.count]
        json.append(contentsOf: String(scalar).utf8)
        units.append(contentsOf: String(scalar).utf16)
      }
    }
    json.append(UInt8(ascii: "\""))
    return (json, String(decoding: units, as: UTF16.self), nil)
  }
}
