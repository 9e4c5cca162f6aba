/// One cell of a ``TextCanvas`` in four bytes, with no reference to count: a character
/// of one Unicode scalar is the scalar itself; a character of several (an emoji with a
/// skin tone, a flag, a letter with a combining accent) is an index into the canvas's
/// ``ClusterTable``.
///
/// So a canvas is two arrays of plain values (glyphs and styles), copied, compared and
/// composited without retaining a `Character` per cell: a 200×60 frame that held a
/// `Character` (16 bytes, retained on each copy) per cell now holds 4 bytes per cell.
@frozen @usableFromInline
package struct CanvasGlyph: Hashable, Sendable {
  /// The bits: a scalar value or cluster index in the low 29, then the flags.
  @usableFromInline
  package var raw: UInt32

  /// The right half of the wide character to its left.
  @inlinable static var continuationFlag: UInt32 { 1 << 31 }
  /// The left half of a character two columns wide.
  @inlinable static var wideFlag: UInt32 { 1 << 30 }
  /// The low bits index the canvas's cluster table rather than being a scalar.
  @inlinable static var clusterFlag: UInt32 { 1 << 29 }
  @inlinable static var payloadMask: UInt32 { 1 << 29 - 1 }

  /// A space, one column wide: what a blank cell holds.
  @inlinable package static var blank: CanvasGlyph { CanvasGlyph(raw: 0x20) }
  /// The right half of a wide character.
  @inlinable package static var continuation: CanvasGlyph { CanvasGlyph(raw: continuationFlag) }

  @inlinable @inline(__always)
  package init(raw: UInt32) { self.raw = raw }

  /// The glyph of a character of one scalar.
  @inlinable @inline(__always)
  init(scalar value: UInt32, wide: Bool) {
    raw = value | (wide ? Self.wideFlag : 0)
  }

  /// The glyph of the character at `index` of a cluster table.
  @inlinable @inline(__always)
  init(cluster index: Int, wide: Bool) {
    raw = UInt32(truncatingIfNeeded: index) | Self.clusterFlag | (wide ? Self.wideFlag : 0)
  }

  /// Whether it is the right half of a wide character.
  @inlinable @inline(__always)
  package var isContinuation: Bool { raw & Self.continuationFlag != 0 }
  /// Whether it is a character two columns wide.
  @inlinable @inline(__always)
  package var isWide: Bool { raw & Self.wideFlag != 0 }
  /// Whether it is a character of several scalars, kept in the cluster table.
  @inlinable @inline(__always)
  package var isCluster: Bool { raw & Self.clusterFlag != 0 }
  /// The scalar value, or the index into the cluster table.
  @inlinable @inline(__always)
  var payload: UInt32 { raw & Self.payloadMask }
  /// The scalar value of a glyph that is one scalar (no cluster, no continuation).
  @inlinable @inline(__always)
  package var scalarValue: UInt32 { raw & Self.payloadMask }
  /// Whether it is one printable ASCII character (one column, no flag).
  @inlinable @inline(__always)
  package var isPrintableASCII: Bool { raw &- 0x20 < 0x5F }

  /// The same glyph, as the left half of a wide character or not.
  @inlinable @inline(__always)
  func wide(_ wide: Bool) -> CanvasGlyph {
    CanvasGlyph(raw: wide ? raw | Self.wideFlag : raw & ~Self.wideFlag)
  }
}

extension CanvasGlyph {
  /// The most bytes ``writeScalarUTF8(to:)`` writes.
  @inlinable package static var scalarUTF8Limit: Int { 4 }

  /// Writes the UTF-8 of a glyph that is one scalar (no cluster, no continuation), or `?`
  /// for a scalar that would act on the terminal (see `CellText`), at `out`, which has
  /// room for ``scalarUTF8Limit`` bytes: the one encoder of the diffs and the full
  /// repaint.
  ///
  /// - Returns: How many bytes it wrote.
  @inlinable @inline(__always)
  package func writeScalarUTF8(to out: UnsafeMutablePointer<UInt8>) -> Int {
    let value = scalarValue
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
}
