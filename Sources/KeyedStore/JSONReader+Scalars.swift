// JSONReader's strings and numbers: the tokens read byte by byte.
extension JSONReader {
  /// Reads a string, from its opening quote. A string without escapes becomes a `String`
  /// in one step from its bytes; one with escapes is gathered into a buffer first.
  ///
  /// - Throws: ``JSONSyntaxError`` for a string that is not closed, holds a control
  ///   character or an unknown escape, or is not UTF-8.
  mutating func readString() throws(JSONSyntaxError) -> String {
    index += 1
    let contentStart = index
    var isASCII = true
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        let content = bytes[contentStart..<index]
        index += 1
        if isASCII { return String(decoding: content, as: UTF8.self) }
        guard let string = String(validating: content, as: UTF8.self) else {
          throw failure("a string that is not UTF-8")
        }
        return string
      case UInt8(ascii: "\\"): return try readEscapedString(from: contentStart)
      case 0..<0x20: throw failure("a control character in a string")
      case 0x80...: isASCII = false
      default: break
      }
      index += 1
    }
    throw failure("a string that is not closed")
  }

  /// Reads the rest of a string that holds an escape, from the first backslash.
  private mutating func readEscapedString(from contentStart: Int) throws(JSONSyntaxError)
    -> String
  {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(index - contentStart + 16)
    var runStart = contentStart
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        utf8.append(contentsOf: bytes[runStart..<index])
        index += 1
        guard let string = String(validating: utf8, as: UTF8.self) else {
          throw failure("a string that is not UTF-8")
        }
        return string
      }
      guard byte >= 0x20 else { throw failure("a control character in a string") }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      utf8.append(contentsOf: bytes[runStart..<index])
      index += 1
      let escape = next
      index += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
      case UInt8(ascii: "b"): utf8.append(0x08)
      case UInt8(ascii: "f"): utf8.append(0x0C)
      case UInt8(ascii: "n"): utf8.append(0x0A)
      case UInt8(ascii: "r"): utf8.append(0x0D)
      case UInt8(ascii: "t"): utf8.append(0x09)
      case UInt8(ascii: "u"):
        let unit = try readHexUnit()
        var scalar = unit
        if (0xD800...0xDBFF).contains(unit), let low = followingLowSurrogate() {
          index += 6
          scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xD800...0xDFFF).contains(unit) {
          // A lone surrogate, which no `String` can hold: the replacement character.
          scalar = 0xFFFD
        }
        UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { utf8.append($0) }
      default:
        index -= 1
        throw failure("an unknown escape in a string")
      }
      runStart = index
    }
    throw failure("a string that is not closed")
  }

  /// Reads the four hex digits of a `\u` escape.
  private mutating func readHexUnit() throws(JSONSyntaxError) -> UInt32 {
    guard let unit = hexUnit(at: index) else {
      throw failure("expected four hex digits after \\u")
    }
    index += 4
    return unit
  }

  /// The value of the four hex digits at `position`, if there are four.
  private func hexUnit(at position: Int) -> UInt32? {
    guard end - position >= 4 else { return nil }
    var unit: UInt32 = 0
    for byte in bytes[position..<position + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      unit = unit << 4 | UInt32(digit)
    }
    return unit
  }

  /// The low surrogate of a `\u` escape that comes next, completing a pair, if one does.
  private func followingLowSurrogate() -> UInt32? {
    guard end - index >= 6, bytes[index] == UInt8(ascii: "\\"),
      bytes[index + 1] == UInt8(ascii: "u"), let unit = hexUnit(at: index + 2),
      (0xDC00...0xDFFF).contains(unit)
    else { return nil }
    return unit
  }

  /// Reads a number, checking JSON's syntax for it.
  ///
  /// - Returns: Its value (see ``JSONNumber``), or `nil` for a number too large for a
  ///   `Double`.
  /// - Throws: ``JSONSyntaxError`` where the text is not a JSON number.
  mutating func readNumber() throws(JSONSyntaxError) -> StoredJSON? {
    let numberStart = index
    var isPlain = true
    if next == UInt8(ascii: "-") { index += 1 }
    if next == UInt8(ascii: "0") {
      index += 1
    } else {
      try readDigits()
    }
    if next == UInt8(ascii: ".") {
      isPlain = false
      index += 1
      try readDigits()
    }
    if next | 0x20 == UInt8(ascii: "e") {
      isPlain = false
      index += 1
      if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
      try readDigits()
    }
    // Up to 18 digits always fit in an Int64: no text needed.
    if isPlain, index - numberStart <= 18 {
      var magnitude: Int64 = 0
      for byte in bytes[numberStart..<index] where byte != UInt8(ascii: "-") {
        magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return .integer(bytes[numberStart] == UInt8(ascii: "-") ? -magnitude : magnitude)
    }
    return JSONNumber.value(String(decoding: bytes[numberStart..<index], as: UTF8.self))
  }

  /// Reads one or more digits.
  private mutating func readDigits() throws(JSONSyntaxError) {
    guard next &- UInt8(ascii: "0") < 10 else { throw failure("expected a digit") }
    while next &- UInt8(ascii: "0") < 10 { index += 1 }
  }
}
