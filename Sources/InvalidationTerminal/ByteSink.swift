import Invalidation

/// Bytes gathered in a fixed buffer and moved to an array a block at a time: so that a
/// frame's cells, a byte or a few each, are stored with no per-byte capacity or
/// uniqueness check of the array.
struct ByteSink: ~Copyable {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  private var count = 0

  /// The most bytes one ``appendUTF8(ofScalarGlyph:)`` writes.
  static let glyphLimit = 4

  init(capacity: Int = 16_384) {
    buffer = .allocate(capacity: capacity)
  }

  deinit { buffer.deallocate() }

  /// Makes room for `bytes` more, moving what it holds to `output` when it would not fit.
  @inline(__always)
  mutating func reserve(_ bytes: Int, flushingTo output: inout [UInt8]) {
    if count &+ bytes > buffer.count { flush(to: &output) }
  }

  /// Appends one byte; room was reserved.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    buffer[count] = byte
    count &+= 1
  }

  /// Appends the UTF-8 of a glyph that is one scalar (no cluster, no continuation), or
  /// `?` for a scalar that would act on the terminal; room was reserved.
  @inline(__always)
  mutating func appendUTF8(ofScalarGlyph glyph: CanvasGlyph) {
    count &+= Self.writeUTF8(ofScalarGlyph: glyph, to: buffer.baseAddress! + count)
  }

  /// Writes the UTF-8 of a glyph that is one scalar (no cluster, no continuation), or `?`
  /// for a scalar that would act on the terminal, at `out`, which has room for four bytes.
  ///
  /// - Returns: How many bytes it wrote.
  @inline(__always)
  static func writeUTF8(ofScalarGlyph glyph: CanvasGlyph, to out: UnsafeMutablePointer<UInt8>)
    -> Int
  {
    let value = glyph.scalarValue
    if value &- 0x20 < 0x5F {
      out[0] = UInt8(truncatingIfNeeded: value)
      return 1
    }
    if CellText.actsOnTheTerminal(value) {
      out[0] = CellText.replacement
      return 1
    }
    if value < 0x800 {
      out[0] = 0xC0 | UInt8(truncatingIfNeeded: value >> 6)
      out[1] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
      return 2
    }
    if value < 0x10000 {
      out[0] = 0xE0 | UInt8(truncatingIfNeeded: value >> 12)
      out[1] = 0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F)
      out[2] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
      return 3
    }
    out[0] = 0xF0 | UInt8(truncatingIfNeeded: value >> 18)
    out[1] = 0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F)
    out[2] = 0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F)
    out[3] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
    return 4
  }

  /// Calls `body` with the start of its unused space (room was reserved for what `body`
  /// writes), and counts the bytes `body` says it wrote.
  ///
  /// - Returns: What `body` returns beside the count.
  @inline(__always)
  mutating func withUnusedSpace<Result>(
    _ body: (UnsafeMutablePointer<UInt8>) -> (Result, written: Int)
  ) -> Result {
    let (result, written) = body(buffer.baseAddress! + count)
    count &+= written
    return result
  }

  /// Appends `utf8`, moving what it holds to `output` first when it would not fit (and
  /// `utf8` itself straight to `output` when it is larger than the whole buffer).
  mutating func append(
    contentsOf utf8: UnsafeBufferPointer<UInt8>, flushingTo output: inout [UInt8]
  ) {
    reserve(utf8.count, flushingTo: &output)
    guard utf8.count <= buffer.count else { return output.append(contentsOf: utf8) }
    guard let source = utf8.baseAddress else { return }
    (buffer.baseAddress! + count).update(from: source, count: utf8.count)
    count &+= utf8.count
  }

  /// Moves the bytes it holds to the end of `output`.
  mutating func flush(to output: inout [UInt8]) {
    output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
    count = 0
  }
}
