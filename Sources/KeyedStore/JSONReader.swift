/// Reads JSON text into ``StoredJSON`` values, without recursion: nesting is kept on a
/// stack of its own, so a value nested 100,000 deep needs no deep thread stack, and an
/// object's members are handed over one at a time, so that a store file's values can be
/// read each on its own.
///
///     var reader = JSONReader(Array(#"{"a": [1, 2], "b": "\udce9"}"#.utf8))
///     try reader.readObject { name, reader in
///       print(name, try reader.readValue(depthLimit: 512))
///     }
///     // Prints "a array([integer(1), integer(2)])"
///     // Prints "b string("\u{FFFD}")"
///
/// It reads what `JSONDecoder` reads, so that every file that opened before opens the
/// same way: RFC 8259 JSON in UTF-8, plus a byte-order mark at the start and one trailing
/// comma in a non-empty array or object. Where an object repeats a name, the first
/// member counts. Two things it reads that `JSONDecoder` refuses, each costing only the
/// value that holds it rather than the whole document:
/// - A lone surrogate escape (`"caf\udce9"`, as Python's `json.dumps` writes): a low
///   surrogate not preceded by a high one, or a high one not followed by a low one, is
///   read as U+FFFD.
/// - A value nested deeper than the depth limit, or holding a number no Swift number type
///   holds, is read as ``StoredJSON/raw(_:)``: its text, kept as it was.
///
/// - Complexity: Linear in the length of the text.
struct JSONReader {
  // Internal rather than private only for the scalar readers in JSONReader+Scalars.swift.
  /// The text.
  let bytes: [UInt8]
  /// Where the text read starts in `bytes`: lines and columns count from here.
  let start: Int
  /// Where it ends.
  let end: Int
  /// The next byte to read.
  var index: Int

  /// A reader of `bytes[range]`, or of all of `bytes`.
  init(_ bytes: [UInt8], in range: Range<Int>? = nil) {
    self.bytes = bytes
    start = range?.lowerBound ?? 0
    end = range?.upperBound ?? bytes.count
    index = start
  }

  /// What an open array or object holds so far, while a value is read.
  private struct Frame {
    /// Whether it is an object (else an array).
    var isObject: Bool
    /// An array's elements so far.
    var items: [StoredJSON] = []
    /// An object's members so far.
    var members: [String: StoredJSON] = [:]
    /// The name of the member being read, in an object.
    var name = ""
  }

  /// Reads an object, handing each member's name to `member` with the reader at its value,
  /// which `member` must read.
  ///
  /// - Throws: ``JSONSyntaxError`` where the text is not an object.
  mutating func readObject(
    _ member: (_ name: String, _ reader: inout JSONReader) throws(JSONSyntaxError) -> Void
  ) throws(JSONSyntaxError) {
    skipWhitespace()
    guard next == UInt8(ascii: "{") else { throw failure("expected an object") }
    index += 1
    skipWhitespace()
    if next == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      try member(try readMemberName(), &self)
      skipWhitespace()
      if next == UInt8(ascii: ",") {
        index += 1
        skipWhitespace()
        if next != UInt8(ascii: "}") { continue }
      }
      guard next == UInt8(ascii: "}") else { throw failure("expected ',' or '}' in an object") }
      index += 1
      return
    }
  }

  /// Reads one value, which nests at most `depthLimit` arrays and objects within each
  /// other; a deeper one, or one holding a number too large for a `Double`, is read as
  /// ``StoredJSON/raw(_:)``.
  ///
  /// - Throws: ``JSONSyntaxError`` where the text is not a JSON value.
  mutating func readValue(depthLimit: Int) throws(JSONSyntaxError) -> StoredJSON {
    skipWhitespace()
    let valueStart = index
    // The containers open, innermost last (whether each is an object), and what each
    // holds, while nothing is wrong; once something is, the text is only checked.
    var open: [Bool] = []
    var frames: [Frame] = []
    var problem: RawJSON.Problem?
    while true {
      var value: StoredJSON
      skipWhitespace()
      switch next {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = next == UInt8(ascii: "{")
        index += 1
        open.append(isObject)
        if problem == nil, open.count > depthLimit {
          problem = .tooDeep
          frames.removeAll()
        }
        skipWhitespace()
        if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          index += 1
          open.removeLast()
          value = isObject ? .object([:]) : .array([])
        } else {
          if problem == nil { frames.append(Frame(isObject: isObject)) }
          if isObject {
            let name = try readMemberName()
            if problem == nil { frames[frames.count - 1].name = name }
          }
          continue
        }
      case UInt8(ascii: "\""): value = .string(try readString())
      case UInt8(ascii: "t"): value = try readLiteral("true", .bool(true))
      case UInt8(ascii: "f"): value = try readLiteral("false", .bool(false))
      case UInt8(ascii: "n"): value = try readLiteral("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        if let number = try readNumber() {
          value = number
        } else {
          if problem == nil {
            problem = .numberOutOfRange
            frames.removeAll()
          }
          value = .null
        }
      default: throw failure("expected a value")
      }
      // Put the value in its container, and close each container that ends after it.
      closing: while true {
        guard let isObject = open.last else {
          guard let problem else { return value }
          let text = String(decoding: bytes[valueStart..<index], as: UTF8.self)
          return .raw(RawJSON(text: text, problem: problem))
        }
        if problem == nil {
          let last = frames.count - 1
          if isObject {
            let name = frames[last].name
            if frames[last].members[name] == nil { frames[last].members[name] = value }
          } else {
            frames[last].items.append(value)
          }
        }
        skipWhitespace()
        let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if next == UInt8(ascii: ",") {
          index += 1
          skipWhitespace()
          if next != closer {
            if isObject {
              let name = try readMemberName()
              if problem == nil { frames[frames.count - 1].name = name }
            }
            break closing
          }
        }
        guard next == closer else {
          throw failure(isObject ? "expected ',' or '}' in an object" : "expected ',' or ']'")
        }
        index += 1
        open.removeLast()
        if problem == nil {
          let frame = frames.removeLast()
          value = frame.isObject ? .object(frame.members) : .array(frame.items)
        }
      }
    }
  }

  /// Skips a UTF-8 byte-order mark at the start, which `JSONDecoder` skips too.
  mutating func skipByteOrderMark() {
    if index == start, end - index >= 3, bytes[index] == 0xEF, bytes[index + 1] == 0xBB,
      bytes[index + 2] == 0xBF
    {
      index += 3
    }
  }

  /// Checks that only whitespace is left.
  ///
  /// - Throws: ``JSONSyntaxError`` otherwise.
  mutating func readEnd() throws(JSONSyntaxError) {
    skipWhitespace()
    guard index == end else { throw failure("unexpected text after the end of the document") }
  }

  /// The next byte, or 0 at the end (which no JSON token starts with).
  var next: UInt8 { index < end ? bytes[index] : 0 }

  /// The next byte after any whitespace (which it skips): what kind of value comes next.
  var nextNonWhitespace: UInt8 {
    mutating get {
      skipWhitespace()
      return next
    }
  }

  /// Skips JSON's whitespace: space, line feed, carriage return and tab.
  mutating func skipWhitespace() {
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        index += 1
      default: return
      }
    }
  }

  /// Reads a member's name and the colon after it.
  private mutating func readMemberName() throws(JSONSyntaxError) -> String {
    skipWhitespace()
    guard next == UInt8(ascii: "\"") else { throw failure("expected a member name") }
    let name = try readString()
    skipWhitespace()
    guard next == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
    index += 1
    return name
  }

  /// Reads `word`, and returns `value`.
  private mutating func readLiteral(_ word: String, _ value: StoredJSON)
    throws(JSONSyntaxError) -> StoredJSON
  {
    let length = word.utf8.count
    guard end - index >= length, bytes[index..<index + length].elementsEqual(word.utf8) else {
      throw failure("expected a value")
    }
    index += length
    return value
  }
}

/// Where JSON text is not JSON, and why: a line and column of the text read, and a fixed
/// description of what was expected, never the text found (which may be a stored value).
struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  /// The line, from 1.
  var line: Int
  /// The column, in bytes, from 1.
  var column: Int
  /// What was expected there.
  var problem: String

  /// Where, and what was expected.
  var description: String { "line \(line), column \(column): \(problem)" }
}

// Errors: lines and columns are counted only when one is thrown.
extension JSONReader {
  /// A ``JSONSyntaxError`` at the current byte.
  func failure(_ problem: String) -> JSONSyntaxError {
    var line = 1
    var lineStart = start
    for position in start..<min(index, end) where bytes[position] == UInt8(ascii: "\n") {
      line += 1
      lineStart = position + 1
    }
    return JSONSyntaxError(line: line, column: index - lineStart + 1, problem: problem)
  }
}
