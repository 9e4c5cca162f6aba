/// Escaping for text and attribute values, so that any string placed into the HTML stays
/// inert: it can neither close the element it sits in nor open a new one.
enum HTMLEscaping {
  /// Escapes `&`, `<`, `>`, `"` and `'`, and replaces control characters (which HTML
  /// forbids) with U+FFFD. Safe both as element text and inside a double- or
  /// single-quoted attribute value.
  static func escape(_ text: some StringProtocol) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      case "\t", "\n": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        escaped += "\u{FFFD}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// Whether `name` is an attribute name this renderer writes: ASCII letters, digits,
  /// `-`, `_`, `:` and `.`, starting with a letter, at most 64 characters — enough for
  /// `data-*` and `aria-*`, and nothing that could break out of the tag.
  static func isValidAttributeName(_ name: String) -> Bool {
    guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
    let isLetter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    guard isLetter(first) else { return false }
    return name.utf8.allSatisfy { byte in
      isLetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
        || byte == 0x3A || byte == 0x2E
    }
  }
}
