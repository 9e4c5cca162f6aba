/// Turns the bytes a terminal sends in raw mode into keys. Bytes of a sequence split
/// across reads are kept until the rest arrives; a lone escape at the end of a read is
/// the Escape key.
public struct TerminalKeyParser: Sendable {
  private var pending: [UInt8] = []
  /// Whether the rest of a runaway sequence is being dropped, up to its final byte.
  private var discarding = false

  /// The longest escape sequence kept while waiting for its end: a longer one is
  /// reported as `.unknown` with its first bytes, and the rest of it dropped, so that
  /// pending bytes stay bounded whatever the terminal (or a paste) sends.
  static let maximumSequenceLength = 64

  /// Creates a parser with nothing pending.
  public init() {}

  /// Parses one read's bytes.
  ///
  ///     var parser = TerminalKeyParser()
  ///     parser.parse(Array("q\u{1B}[A".utf8))
  ///     // [.character("q"), .up]
  ///
  /// - Parameter bytes: What one `read` returned.
  /// - Returns: The complete keys, in order.
  public mutating func parse(_ bytes: [UInt8]) -> [TerminalKey] {
    pending += bytes
    var keys: [TerminalKey] = []
    var index = 0
    while index < pending.count {
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
      keys.append(key)
      index += length
    }
    pending.removeFirst(index)
    return keys
  }

  /// The keys of whatever is pending, as if no more bytes could come (the end of input):
  /// a lone escape is the Escape key, an unfinished sequence an unknown key.
  mutating func flush() -> [TerminalKey] {
    var keys: [TerminalKey] = []
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
    guard second == 0x5B || second == 0x4F else {
      // ESC followed by a key: Alt-key; report the escape, then the key.
      return (.escape, 1)
    }
    // CSI or SS3: parameters, then a final byte in 0x40...0x7E.
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
    let key: TerminalKey
    switch (bytes[end], Array(bytes[(start + 2)..<end])) {
    case (0x41, _): key = .up
    case (0x42, _): key = .down
    case (0x43, _): key = .right
    case (0x44, _): key = .left
    case (0x48, _): key = .home
    case (0x46, _): key = .end
    case (0x7E, [0x31]), (0x7E, [0x37]): key = .home
    case (0x7E, [0x34]), (0x7E, [0x38]): key = .end
    case (0x7E, [0x33]): key = .delete
    case (0x7E, [0x35]): key = .pageUp
    case (0x7E, [0x36]): key = .pageDown
    default: key = .unknown(sequence)
    }
    return (key, length)
  }
}
