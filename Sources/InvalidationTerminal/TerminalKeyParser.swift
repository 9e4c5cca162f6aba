import Invalidation

/// Turns the bytes a terminal sends in raw mode into keys. Bytes of a sequence split
/// across reads are kept until the rest arrives; a lone escape at the end of a read is
/// the Escape key.
///
/// It reads what xterm, VTE (GNOME Terminal and friends), tmux, screen and the Linux
/// console send: arrows, Home, End, Page Up/Down, Insert and Delete, each with Shift,
/// Alt and Control (`ESC [ 1 ; 5 C`); F1–F12 in their xterm (`ESC O P`, `ESC [ 15 ~`) and
/// Linux console (`ESC [ [ A`) forms, with modifiers; Shift-Tab (`ESC [ Z`; `ESC Tab` on
/// the console); Alt with any key (`ESC x`); bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`)
/// as one ``TerminalKey/paste(_:)``; and SGR mouse reports (`ESC [ < b ; x ; y M`).
///
/// Pending bytes stay bounded: an escape sequence longer than 64 bytes is reported as
/// ``TerminalKey/unknown(_:)`` and the rest of it dropped, and a paste is delivered in
/// pieces of at most one mebibyte.
public struct TerminalKeyParser: Sendable {
  private var pending: [UInt8] = []
  /// Whether the rest of a runaway sequence is being dropped, up to its final byte.
  private var discarding = false
  /// The text of a bracketed paste so far, while inside one.
  private var pasted: [UInt8]?

  /// The longest escape sequence kept while waiting for its end: a longer one is
  /// reported as `.unknown` with its first bytes, and the rest of it dropped, so that
  /// pending bytes stay bounded whatever the terminal sends.
  static let maximumSequenceLength = 64
  /// The most text one ``TerminalKey/paste(_:)`` carries: one mebibyte.
  static let maximumPasteLength = 1 << 20

  private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// Creates a parser with nothing pending.
  public init() {}

  /// Parses one read's bytes.
  ///
  ///     var parser = TerminalKeyParser()
  ///     parser.parse(Array("q\u{1B}[A\u{1B}x".utf8))
  ///     // [.character("q"), .up, .modified(.character("x"), .alt)]
  ///
  /// - Parameter bytes: What one `read` returned.
  /// - Returns: The complete keys, in order.
  public mutating func parse(_ bytes: [UInt8]) -> [TerminalKey] {
    pending += bytes
    var keys: [TerminalKey] = []
    var index = 0
    while index < pending.count {
      if pasted != nil {
        let (next, finished) = paste(from: index, into: &keys)
        index = next
        if finished { continue } else { break }
      }
      if discarding {
        let byte = pending[index]
        if (0x20...0x3F).contains(byte) {
          index += 1
        } else {
          discarding = false
          if (0x40...0x7E).contains(byte) { index += 1 }
        }
        continue
      }
      guard let (key, length) = Self.key(in: pending[index...]) else {
        if pending.count - index > Self.maximumSequenceLength {
          keys.append(.unknown(Array(pending[index..<(index + Self.maximumSequenceLength)])))
          index = pending.count
          discarding = true
        }
        break
      }
      index += length
      if case .paste = key {
        pasted = []  // the start marker: the text follows
      } else {
        keys.append(key)
      }
    }
    pending.removeFirst(index)
    return keys
  }

  /// Takes paste text from `pending[start...]` up to the end marker (or as much as is
  /// surely text); returns the index after what it took, and whether the paste ended.
  private mutating func paste(
    from start: Int, into keys: inout [TerminalKey]
  ) -> (index: Int, finished: Bool) {
    let rest = pending[start...]
    if let end = rest.firstRange(of: Self.pasteEnd) {
      pasted! += rest[start..<end.lowerBound]
      keys.append(.paste(String(decoding: pasted!, as: UTF8.self)))
      pasted = nil
      return (end.upperBound, true)
    }
    // Keep back what could be the start of the end marker.
    var cut = pending.count
    for keep in (1..<Self.pasteEnd.count).reversed() where rest.count >= keep {
      if rest.suffix(keep).elementsEqual(Self.pasteEnd.prefix(keep)) {
        cut = pending.count - keep
        break
      }
    }
    pasted! += pending[start..<cut]
    while pasted!.count >= Self.maximumPasteLength {
      // Split at a character boundary: never inside a UTF-8 sequence.
      var split = Self.maximumPasteLength
      while split > Self.maximumPasteLength - 4, pasted![split] & 0xC0 == 0x80 { split -= 1 }
      keys.append(.paste(String(decoding: pasted![..<split], as: UTF8.self)))
      pasted!.removeFirst(split)
    }
    // The rest (a possible start of the end marker) waits for more bytes.
    return (cut, false)
  }

  /// The keys of whatever is pending, as if no more bytes could come (the end of input):
  /// a lone escape is the Escape key, an unfinished sequence an unknown key, an
  /// unfinished paste a paste.
  mutating func flush() -> [TerminalKey] {
    var keys: [TerminalKey] = []
    if let text = pasted {
      keys.append(.paste(String(decoding: text + pending, as: UTF8.self)))
      pasted = nil
      pending.removeAll()
    }
    while !pending.isEmpty {
      if let (key, length) = Self.key(in: pending[...]) {
        keys.append(key)
        pending.removeFirst(length)
      } else {
        keys.append(.unknown(pending))
        pending.removeAll()
      }
    }
    return keys
  }

  /// The key at the start of `bytes` and its length, or `nil` if more bytes are needed.
  /// A paste's start marker comes back as an empty ``TerminalKey/paste(_:)``.
  private static func key(in bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
    let first = bytes[bytes.startIndex]
    switch first {
    case 0x1B: return escapeSequence(in: bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x00, 0x1C...0x1F: return (.unknown([first]), 1)
    case 0x20...0x7E: return (.character(Character(Unicode.Scalar(first))), 1)
    default:
      // UTF-8: the lead byte gives the length.
      let length =
        first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
      guard bytes.count >= length else { return nil }
      let scalarBytes = Array(bytes.prefix(length))
      if let string = String(validating: scalarBytes, as: UTF8.self), let character = string.first {
        return (.character(character), length)
      }
      return (.unknown(scalarBytes), length)
    }
  }

  private static func escapeSequence(in bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return (.escape, 1) }
    let second = bytes[start + 1]
    switch second {
    case 0x5B: return controlSequence(in: bytes)
    case 0x4F: return singleShift(in: bytes)
    case 0x09: return (.modified(.tab, .shift), 2)  // the Linux console's back-tab
    case 0x1B: return (.escape, 1)  // the second escape starts a key of its own
    default:
      // ESC followed by a key: that key with Alt.
      guard let (key, length) = key(in: bytes.dropFirst()) else { return nil }
      return (key.adding(.alt), 1 + length)
    }
  }

  /// `ESC O` and one byte (xterm's application keypad mode, F1–F4).
  private static func singleShift(in bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 3 else { return nil }
    var end = start + 2
    // Some terminals put a modifier parameter here (`ESC O 2 P`).
    while end < bytes.endIndex, (0x30...0x39).contains(bytes[end]) { end += 1 }
    guard end < bytes.endIndex else { return nil }
    let modifiers = modifiers(Int(String(decoding: bytes[(start + 2)..<end], as: UTF8.self)))
    let key: TerminalKey
    switch bytes[end] {
    case 0x41: key = .up
    case 0x42: key = .down
    case 0x43: key = .right
    case 0x44: key = .left
    case 0x48: key = .home
    case 0x46: key = .end
    case 0x4D: key = .enter
    case 0x50...0x53: key = .function(Int(bytes[end] - 0x50) + 1)
    default: return (.unknown(Array(bytes[start...end])), end - start + 1)
    }
    return (key.adding(modifiers), end - start + 1)
  }

  /// `ESC [`, parameters, and a final byte.
  private static func controlSequence(in bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 3 else { return nil }
    // The Linux console's F1–F5: `ESC [ [ A` to `ESC [ [ E`.
    if bytes[start + 2] == 0x5B {
      guard bytes.count >= 4 else { return nil }
      let final = bytes[start + 3]
      guard (0x41...0x45).contains(final) else {
        return (.unknown(Array(bytes.prefix(4))), 4)
      }
      return (.function(Int(final - 0x41) + 1), 4)
    }
    var end = start + 2
    while end < bytes.endIndex, !(0x40...0x7E).contains(bytes[end]) {
      // Only parameter and intermediate bytes may come before the final byte: anything
      // else (a new ESC, a control) ends a malformed sequence there.
      guard (0x20...0x3F).contains(bytes[end]) else {
        return (.unknown(Array(bytes[start..<end])), end - start)
      }
      end += 1
    }
    guard end < bytes.endIndex else { return nil }
    let length = end - start + 1
    let sequence = Array(bytes[start...end])
    let body = bytes[(start + 2)..<end]
    if body.first == 0x3C {  // `<`: an SGR mouse report
      return (
        mouse(body.dropFirst(), final: bytes[end]).map(TerminalKey.mouse) ?? .unknown(sequence),
        length
      )
    }
    let parameters = body.split(separator: 0x3B, omittingEmptySubsequences: false).map {
      Int(String(decoding: $0, as: UTF8.self))
    }
    let first = (parameters.first ?? nil) ?? -1
    let modifiers = modifiers(parameters.count > 1 ? parameters[1] : nil)
    let key: TerminalKey
    switch bytes[end] {
    case 0x41: key = .up
    case 0x42: key = .down
    case 0x43: key = .right
    case 0x44: key = .left
    case 0x48: key = .home
    case 0x46: key = .end
    case 0x50...0x53: key = .function(Int(bytes[end] - 0x50) + 1)
    case 0x5A: key = .modified(.tab, .shift)
    case 0x7E:
      switch first {
      case 1, 7: key = .home
      case 4, 8: key = .end
      case 2: key = .insert
      case 3: key = .delete
      case 5: key = .pageUp
      case 6: key = .pageDown
      case 11...15: key = .function(first - 10)
      case 17...21: key = .function(first - 11)
      case 23...26: key = .function(first - 12)
      case 28, 29: key = .function(first - 13)
      case 31...34: key = .function(first - 14)
      case 200: return (.paste(""), length)
      default: key = .unknown(sequence)
      }
    default: key = .unknown(sequence)
    }
    if case .unknown = key { return (key, length) }
    return (key.adding(modifiers), length)
  }

  /// The modifiers an xterm parameter encodes (one plus the bits), none for `nil` or 1.
  private static func modifiers(_ parameter: Int?) -> TerminalKeyModifiers {
    guard let parameter, parameter > 1, parameter <= 16 else { return [] }
    return TerminalKeyModifiers(rawValue: UInt8(parameter - 1))
  }

  /// An SGR mouse report's body after `<`: `button ; column ; row`, ended by `M` (press,
  /// drag, scroll) or `m` (release).
  private static func mouse(_ body: ArraySlice<UInt8>, final: UInt8) -> TerminalMouseEvent? {
    let numbers = body.split(separator: 0x3B).compactMap {
      Int(String(decoding: $0, as: UTF8.self))
    }
    guard numbers.count == 3, final == 0x4D || final == 0x6D else { return nil }
    let code = numbers[0]
    var modifiers: TerminalKeyModifiers = []
    if code & 4 != 0 { modifiers.insert(.shift) }
    if code & 8 != 0 { modifiers.insert(.alt) }
    if code & 16 != 0 { modifiers.insert(.control) }
    let point = Point(x: max(0, numbers[1] - 1), y: max(0, numbers[2] - 1))
    let buttons: [TerminalMouseEvent.Button] = [.left, .middle, .right, .none]
    let button = buttons[code & 3]
    let kind: TerminalMouseEvent.Kind
    if code & 64 != 0 {
      let wheel: [TerminalMouseEvent.Kind] = [.scrollUp, .scrollDown, .scrollLeft, .scrollRight]
      return TerminalMouseEvent(
        kind: wheel[code & 3], button: .none, point: point, modifiers: modifiers)
    } else if code & 32 != 0 {
      kind = .drag
    } else {
      kind = final == 0x6D ? .release : .press
    }
    return TerminalMouseEvent(kind: kind, button: button, point: point, modifiers: modifiers)
  }
}

extension TerminalKey {
  /// This key with `modifiers` added (itself for none).
  func adding(_ modifiers: TerminalKeyModifiers) -> TerminalKey {
    guard !modifiers.isEmpty else { return self }
    if case .modified(let key, let held) = self { return .modified(key, held.union(modifiers)) }
    return .modified(self, modifiers)
  }
}
