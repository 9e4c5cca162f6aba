import Invalidation

/// Bytes gathered in a fixed buffer and moved to an array a block at a time: so that a
/// frame's cells, a byte or a few each, are stored with no per-byte capacity or
/// uniqueness check of the array.
struct ByteSink: ~Copyable {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  private var count = 0

  /// The most bytes one ``appendUTF8(ofScalarGlyph:)`` writes.
  static let glyphLimit = 4

  init(capacity: Int = 4_096) {
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
    let value = glyph.scalarValue
    if value &- 0x20 < 0x5F { return append(UInt8(truncatingIfNeeded: value)) }
    if CellText.actsOnTheTerminal(value) { return append(CellText.replacement) }
    if value < 0x800 {
      append(0xC0 | UInt8(truncatingIfNeeded: value >> 6))
    } else {
      if value < 0x10000 {
        append(0xE0 | UInt8(truncatingIfNeeded: value >> 12))
      } else {
        append(0xF0 | UInt8(truncatingIfNeeded: value >> 18))
        append(0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F))
      }
      append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
    }
    append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
  }

  /// Moves the bytes it holds to the end of `output`.
  mutating func flush(to output: inout [UInt8]) {
    output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
    count = 0
  }
}
