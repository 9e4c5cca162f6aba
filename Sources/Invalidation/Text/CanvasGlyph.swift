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

/// The characters of several scalars that a canvas's cells show, each stored once, as
/// UTF-8.
///
/// Cells refer to them by index. A character is looked up by its UTF-8 bytes, packed
/// into one integer when it has at most eight (as most such characters do; a character
/// of several scalars holds no zero byte, so lengths cannot collide): by a scan while the
/// table is small (a row's worth), by hashing the integer beyond that. No `Character` is
/// made or hashed (hashing one normalizes it) to store or compare one; compositing copies
/// bytes. Indices only grow while the canvas lives; the canvas compacts the table when it
/// outgrows the cells that could refer to it.
@usableFromInline
package struct ClusterTable: Sendable {
  /// What the table knows of one character.
  private struct Entry {
    /// Its UTF-8, packed (see `SimpleGraphemes.packedKey(of:)`), or 0 when longer.
    var key: UInt64
    /// Where its UTF-8 ends in `bytes`.
    var end: UInt32
    /// Whether it would act on a terminal (see `CellText`).
    var acts: Bool
  }

  /// Every character's UTF-8, one after another.
  private var bytes: [UInt8] = []
  /// Each character, by index.
  private var entries: [Entry] = []
  /// The indices of the characters of at most eight bytes, once the table is too large
  /// to scan.
  private var lookup: [UInt64: UInt32] = [:]

  /// The most characters found by a scan.
  private static let scanLimit = 16

  /// How many characters it holds.
  var count: Int { entries.count }

  /// The UTF-8 of the character at `index`.
  func utf8(at index: UInt32) -> ArraySlice<UInt8> {
    let index = Int(index)
    let start = index == 0 ? 0 : Int(entries[index - 1].end)
    return bytes[start..<Int(entries[index].end)]
  }

  /// The character at `index`.
  subscript(index: UInt32) -> Character {
    Character(String(decoding: utf8(at: index), as: UTF8.self))
  }

  /// The index of `character`, stored first if it is new.
  mutating func index(of character: Character) -> Int {
    let text = String(character)
    if let index = text.utf8.withContiguousStorageIfAvailable({ index(ofUTF8: $0) }) {
      return index
    }
    return Array(text.utf8).withUnsafeBufferPointer { index(ofUTF8: $0) }
  }

  /// The index of the character whose UTF-8 is `utf8` (one whole character of several
  /// scalars), stored first if it is new.
  mutating func index(ofUTF8 utf8: UnsafeBufferPointer<UInt8>) -> Int {
    let key = SimpleGraphemes.packedKey(of: utf8) ?? 0
    if key == 0 {
      // Long characters (families, professions) are few: found by comparing bytes.
      for index in entries.indices where entries[index].key == 0 {
        if utf8.elementsEqual(self.utf8(at: UInt32(index))) { return index }
      }
    } else if entries.count <= Self.scanLimit {
      if let index = entries.firstIndex(where: { $0.key == key }) { return index }
    } else if let index = lookup[key] {
      return Int(index)
    }
    let index = entries.count
    bytes.append(contentsOf: utf8)
    let acts = SimpleGraphemes.Scalars(utf8).contains { CellText.actsOnTheTerminal($0.value) }
    entries.append(Entry(key: key, end: UInt32(bytes.count), acts: acts))
    if key != 0, entries.count > Self.scanLimit {
      if lookup.isEmpty {
        for (position, entry) in entries.enumerated() where entry.key != 0 {
          lookup[entry.key] = UInt32(position)
        }
      } else {
        lookup[key] = UInt32(index)
      }
    }
    return index
  }

  /// Appends the UTF-8 of the character at `index`, or `?` for one that would act on a
  /// terminal.
  func appendUTF8(at index: UInt32, to output: inout [UInt8]) {
    if entries[Int(index)].acts {
      output.append(CellText.replacement)
    } else {
      output.append(contentsOf: utf8(at: index))
    }
  }
}
