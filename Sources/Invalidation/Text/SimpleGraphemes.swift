/// Characters of one scalar, recognised from UTF-8 without Swift's grapheme breaking.
///
/// Drawing walks a string's UTF-8. A scalar from ``isSimple(_:)`` followed by the end of
/// the text, by ASCII or by another such scalar is a character on its own, so it is one
/// cell (or two) without asking the string for its next `Character`; anything else
/// (a combining mark, a joiner, a variation selector, a flag's second half, a Hangul
/// jamo…) takes the general path.
///
/// Why that holds: every simple scalar has the grapheme cluster break property Other,
/// LV or LVT (no control, extender, spacing mark, prepended mark, joiner, regional
/// indicator or jamo), and between two such scalars, or before ASCII (which is Other or
/// a control), Unicode's rules always break. `SimpleGraphemeTests` checks each simple
/// scalar against that, and its width against `Character.terminalColumns`.
enum SimpleGraphemes {
  /// Whether `value` is a simple scalar: printable ASCII, or a scalar of a block whose
  /// characters stand alone (Latin, Greek, Cyrillic, punctuation, symbols, arrows, box
  /// drawing, CJK, kana, Hangul syllables, full-width forms, most emoji).
  @inline(__always)
  static func isSimple(_ value: UInt32) -> Bool {
    switch value {
    case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x370...0x482: true
    case 0x2010...0x2027, 0x2030...0x205E, 0x2070...0x20CF, 0x2100...0x2BFF: true
    case 0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x309B...0x30FF: true
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: true
    case 0xFF01...0xFF60, 0xFFE0...0xFFE6: true
    case 0x1F300...0x1F3FA, 0x1F400...0x1FAFF: true
    default: false
    }
  }

  /// The columns of a simple scalar: `Character.terminalColumns` of it alone. The blocks
  /// most text is made of are answered directly, emoji from a bitmap made once, the rest
  /// from the width tables.
  @inline(__always)
  static func columns(ofSimple value: UInt32) -> Int {
    switch value {
    case 0..<0x1100, 0x2010...0x205E, 0x2190...0x21FF, 0x2500...0x259F: return 1
    case 0x3000...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xAC00...0xD7A3, 0xFF01...0xFF60, 0xFFE0...0xFFE6:
      return 2
    case emojiBlock:
      let bit = Int(value - emojiBlock.lowerBound)
      return wideEmoji[bit >> 6] >> UInt64(bit & 63) & 1 == 1 ? 2 : 1
    default: return TerminalText.tableColumns(of: value)
    }
  }

  /// The emoji blocks that simple scalars reach.
  static let emojiBlock: ClosedRange<UInt32> = 0x1F300...0x1FAFF

  /// Which scalars of ``emojiBlock`` are two columns wide, a bit each.
  static let wideEmoji: [UInt64] = {
    var bits = [UInt64](repeating: 0, count: (emojiBlock.count + 63) / 64)
    for value in emojiBlock where TerminalText.tableColumns(of: value) == 2 {
      let bit = Int(value - emojiBlock.lowerBound)
      bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }
    return bits
  }()

  /// The scalar that starts at `offset` of valid UTF-8, and its length in bytes.
  @inline(__always)
  static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (
    value: UInt32, length: Int
  ) {
    let lead = UInt32(bytes[offset])
    if lead < 0x80 { return (lead, 1) }
    if lead < 0xE0 {
      return ((lead & 0x1F) << 6 | UInt32(bytes[offset + 1] & 0x3F), 2)
    }
    if lead < 0xF0 {
      return (
        (lead & 0x0F) << 12 | UInt32(bytes[offset + 1] & 0x3F) << 6
          | UInt32(bytes[offset + 2] & 0x3F), 3
      )
    }
    return (
      (lead & 0x07) << 18 | UInt32(bytes[offset + 1] & 0x3F) << 12
        | UInt32(bytes[offset + 2] & 0x3F) << 6 | UInt32(bytes[offset + 3] & 0x3F), 4
    )
  }

  /// Whether `value` extends the character before it and is never a character's start
  /// on its own terms: a combining diacritical mark, a variation selector, an emoji skin
  /// tone, a combining mark for symbols (such as the keycap).
  @inline(__always)
  static func isExtender(_ value: UInt32) -> Bool {
    switch value {
    case 0x300...0x36F, 0x1AB0...0x1ACE, 0x1DC0...0x1DFF, 0x20D0...0x20F0: true
    case 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0x1F3FB...0x1F3FF: true
    default: false
    }
  }

  /// Whether `value` is an emoji that a zero width joiner joins to another such emoji
  /// (it has the Extended_Pictographic property), among the simple scalars of the emoji
  /// blocks. Asked of Swift's own grapheme breaking once, so the two always agree.
  @inline(__always)
  static func isJoinableEmoji(_ value: UInt32) -> Bool {
    guard emojiBlock.contains(value) else { return false }
    let bit = Int(value - emojiBlock.lowerBound)
    return joinableEmoji[bit >> 6] >> UInt64(bit & 63) & 1 == 1
  }

  /// Which scalars of ``emojiBlock`` ``isJoinableEmoji(_:)``, a bit each.
  static let joinableEmoji: [UInt64] = {
    var bits = [UInt64](repeating: 0, count: (emojiBlock.count + 63) / 64)
    for value in emojiBlock where isSimple(value) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      var after = String.UnicodeScalarView(["\u{1F468}", "\u{200D}"])
      after.append(scalar)
      var before = String.UnicodeScalarView([scalar, "\u{200D}"])
      before.append("\u{1F469}")
      guard String(after).count == 1, String(before).count == 1 else { continue }
      let bit = Int(value - emojiBlock.lowerBound)
      bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }
    return bits
  }()

  /// Whether `value` is a regional indicator, half of a flag.
  @inline(__always)
  static func isRegionalIndicator(_ value: UInt32) -> Bool { value &- 0x1F1E6 < 26 }

  /// The character of several scalars at `offset` when it has a simple shape: a simple
  /// scalar followed by extenders, or a flag (two regional indicators); each followed by
  /// the end, ASCII or a simple scalar. Its length in bytes, or `nil` for any other
  /// character.
  ///
  /// Why that holds: an extender always joins the character before it (a simple scalar
  /// is no control), extenders join none but themselves, two regional indicators make
  /// one flag, and what follows breaks from them as from any simple scalar.
  static func cluster(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    let (first, firstLength) = scalar(in: bytes, at: offset)
    var end = offset + firstLength
    guard end < bytes.count else { return nil }
    if isRegionalIndicator(first) {
      let (second, secondLength) = scalar(in: bytes, at: end)
      guard isRegionalIndicator(second) else { return nil }
      end += secondLength
    } else {
      guard isSimple(first) else { return nil }
      var joinable = isJoinableEmoji(first)
      while end < bytes.count, bytes[end] >= 0x80 {
        let (next, length) = scalar(in: bytes, at: end)
        if isExtender(next) {
          end += length
          continue
        }
        // An emoji, a zero width joiner and another emoji are one character (a family, a
        // profession); a joiner before anything else is left to the general path.
        guard next == 0x200D, joinable, end + length < bytes.count else { break }
        let (joined, joinedLength) = scalar(in: bytes, at: end + length)
        guard isJoinableEmoji(joined) else { return nil }
        end += length + joinedLength
        joinable = true
      }
      guard end > offset + firstLength else { return nil }
    }
    guard end == bytes.count || bytes[end] < 0x80 || isSimple(scalar(in: bytes, at: end).value)
    else { return nil }
    return end - offset
  }

  /// The scalars of valid UTF-8.
  struct Scalars: Sequence, IteratorProtocol {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func next() -> Unicode.Scalar? {
      guard offset < bytes.count else { return nil }
      let (value, length) = SimpleGraphemes.scalar(in: bytes, at: offset)
      offset += length
      return Unicode.Scalar(value)
    }
  }
}
