/// Writes ``StoredJSON`` values as JSON text, byte for byte as `JSONEncoder` wrote them
/// before (with `.sortedKeys` and `.withoutEscapingSlashes`, and `.prettyPrinted` for a
/// store file), so that files written before and after read and diff the same. It keeps
/// its own stack instead of recursing, so a deep value needs no deep thread stack, and
/// it writes a ``StoredJSON/raw(_:)`` value's text back as the file held it.
///
///     var writer = JSONWriter(style: .pretty)
///     try writer.write(.object(["b": .array([]), "a": .integer(1)]))
///     print(String(decoding: writer.bytes, as: UTF8.self))
///     // Prints:
///     // {
///     //   "a" : 1,
///     //   "b" : [
///     //
///     //   ]
///     // }
///
/// `JSONEncoder`'s format, checked against it: members sorted by the UTF-8 bytes of
/// their names; `"` and `\` escaped, as are the control characters (`\b`, `\t`, `\n`,
/// `\f`, `\r`, others as `\u00xx`), and nothing else (not `/`, DEL or U+2028); a number
/// as ``JSONNumber/text(_:)`` writes it. Pretty-printed: two spaces per level,
/// `"name" : value`, and an empty array or object as its brackets around a blank line.
///
/// - Complexity: O(*n* log *n*) for *n* values: each object's names are sorted.
struct JSONWriter {
  /// How the text is laid out.
  enum Style {
    /// One line, no spaces: a journal line, or a value handed to `JSONDecoder`.
    case compact
    /// Indented, one member or element per line: a store file.
    case pretty
  }

  /// What an open array or object has left to write.
  private struct Frame {
    /// Whether it is an object (else an array).
    var isObject: Bool
    /// An array's elements.
    var items: [StoredJSON] = []
    /// An object's members, sorted by name.
    var members: [(name: String, value: StoredJSON)] = []
    /// The index of the next element or member to write.
    var next = 0
    /// How many elements or members it has.
    var count: Int { isObject ? members.count : items.count }
  }

  /// How the text is laid out.
  let style: Style
  /// The text written so far.
  private(set) var bytes: [UInt8] = []

  /// A writer with nothing written yet.
  init(style: Style) {
    self.style = style
  }

  /// Writes `value` after what is written.
  ///
  /// - Throws: ``StoredJSONError/nonFiniteNumber(path:)`` for a NaN or an infinity, which
  ///   no value read or encoded holds.
  mutating func write(_ value: StoredJSON) throws(StoredJSONError) {
    var stack: [Frame] = []
    var value = value
    while true {
      switch value {
      case .null: append("null")
      case .bool(let flag): append(flag ? "true" : "false")
      case .integer(let number): append(String(number))
      case .unsigned(let number): append(String(number))
      case .double(let number):
        guard number.isFinite else { throw .nonFiniteNumber(path: "a stored value") }
        append(JSONNumber.text(number))
      case .string(let string): writeString(string)
      case .raw(let raw): writeRaw(raw.text)
      case .array(let items) where items.isEmpty: writeEmpty("[", "]", depth: stack.count)
      case .object(let members) where members.isEmpty: writeEmpty("{", "}", depth: stack.count)
      case .array(let items):
        bytes.append(UInt8(ascii: "["))
        stack.append(Frame(isObject: false, items: items))
      case .object(let members):
        bytes.append(UInt8(ascii: "{"))
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        stack.append(Frame(isObject: true, members: sorted.map { ($0.key, $0.value) }))
      }
      // The next element or member to write, closing each container that is done.
      while let frame = stack.last, frame.next == frame.count {
        stack.removeLast()
        newline(depth: stack.count)
        bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
      }
      guard !stack.isEmpty else { return }
      let last = stack.count - 1
      let index = stack[last].next
      stack[last].next += 1
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      newline(depth: stack.count)
      if stack[last].isObject {
        let member = stack[last].members[index]
        writeString(member.name)
        append(style == .pretty ? " : " : ":")
        value = member.value
      } else {
        value = stack[last].items[index]
      }
    }
  }

  /// Appends a string's UTF-8 bytes.
  private mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Starts a new line indented for `depth` open containers, when pretty-printing.
  private mutating func newline(depth: Int) {
    guard style == .pretty else { return }
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
  }

  /// Writes an empty array or object: `JSONEncoder` pretty-prints one as its brackets
  /// around a blank line.
  private mutating func writeEmpty(_ open: Unicode.Scalar, _ close: Unicode.Scalar, depth: Int) {
    bytes.append(UInt8(ascii: open))
    if style == .pretty {
      bytes.append(UInt8(ascii: "\n"))
      newline(depth: depth)
    }
    bytes.append(UInt8(ascii: close))
  }

  /// Writes a value kept as text: as it was in a file, or without its line breaks in a
  /// compact line (JSON allows a raw line break only as whitespace between tokens).
  private mutating func writeRaw(_ text: String) {
    if style == .pretty {
      append(text)
    } else {
      bytes.append(
        contentsOf: text.utf8.lazy.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") })
    }
  }

  /// Writes a string in quotes, escaping what `JSONEncoder` escapes.
  private mutating func writeString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    let utf8 = string.utf8
    // Most strings need no escape: one copy.
    guard
      utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
    else {
      bytes.append(contentsOf: utf8)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): append("\\\"")
      case UInt8(ascii: "\\"): append("\\\\")
      case 0x08: append("\\b")
      case 0x09: append("\\t")
      case 0x0A: append("\\n")
      case 0x0C: append("\\f")
      case 0x0D: append("\\r")
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        append("\\u00")
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
