/// A canvas's cells as buffers, for the loops that touch every cell of a row (drawing
/// text, compositing a layer): one uniqueness check per loop instead of one per cell.
///
/// Every index it is given lies inside the canvas: callers clip to the canvas first, as
/// ``TextCanvas`` does everywhere (in debug builds the buffers check it).
struct CellBuffers {
  let glyphs: UnsafeMutableBufferPointer<CanvasGlyph>
  let styles: UnsafeMutableBufferPointer<PackedCellStyle>
  /// The canvas's width in cells.
  let width: Int

  /// Stores a cell, first blanking the other half of any wide character it overwrites.
  @inline(__always)
  func store(_ glyph: CanvasGlyph, at index: Int, style: PackedCellStyle) {
    // A continuation always follows its wide character on the same row.
    let old = glyphs[index]
    if old.isContinuation {
      glyphs[index - 1] = .blank
    } else if old.isWide {
      glyphs[index + 1] = .blank
    }
    glyphs[index] = glyph
    styles[index] = style
  }

  /// Stores the run of printable ASCII in `bytes` from `offset` (one such byte, before
  /// ASCII or the end of `bytes`) up to `end` at most, a cell each from cell `index` on,
  /// all in `style`; the run's last byte is left out when a byte of another character
  /// follows it, since a combining mark may join it. The cells from `index` on for
  /// `end - offset` cells lie inside one row.
  ///
  /// - Returns: How many bytes (and cells) it stored, at least one.
  @inline(__always)
  func storeASCIIRun(
    _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, upTo end: Int, at index: Int,
    style: PackedCellStyle
  ) -> Int {
    var stop = offset &+ 1
    while stop < end, bytes[stop] &- 0x20 < 0x5F { stop &+= 1 }
    if stop < bytes.count, bytes[stop] >= 0x80 { stop &-= 1 }
    let count = stop &- offset
    // Only the run's ends can cut a wide character: one whose halves are both inside is
    // overwritten whole.
    if glyphs[index].isContinuation { glyphs[index &- 1] = .blank }
    if glyphs[index &+ count &- 1].isWide { glyphs[index &+ count] = .blank }
    for position in 0..<count {
      glyphs[index &+ position] = CanvasGlyph(raw: UInt32(bytes[offset &+ position]))
    }
    (styles.baseAddress! + index).update(repeating: style, count: count)
    return count
  }

  /// Copies `count` glyphs from `source`, starting at `start`, to the cells from `index`,
  /// adding `clusterOffset` to each cluster's index (the other canvas's cluster table was
  /// appended to this one's at that index): a loop with no branch, run as vector code.
  @inline(__always)
  func copyGlyphs(
    from source: UnsafeBufferPointer<CanvasGlyph>, at start: Int, to index: Int, count: Int,
    clusterOffset: Int
  ) {
    guard count > 0 else { return }
    precondition(start >= 0 && start + count <= source.count && index + count <= glyphs.count)
    let offset = UInt32(truncatingIfNeeded: clusterOffset)
    let from = source.baseAddress! + start
    let to = glyphs.baseAddress! + index
    for position in 0..<count {
      let raw = from[position].raw
      to[position] = CanvasGlyph(raw: raw &+ (raw & CanvasGlyph.clusterFlag == 0 ? 0 : offset))
    }
  }

  /// Copies `count` styles from `source`, starting at `start`, to the cells from `index`.
  @inline(__always)
  func copyStyles(
    from source: UnsafeBufferPointer<PackedCellStyle>, at start: Int, to index: Int, count: Int
  ) {
    guard count > 0 else { return }
    precondition(start >= 0 && start + count <= source.count && index + count <= styles.count)
    (styles.baseAddress! + index).update(from: source.baseAddress! + start, count: count)
  }

  /// Puts a glyph, `columns` (1 or 2) wide, with its left half at column `x` of `row` (a
  /// row inside the canvas; `x` may be anywhere). A wide character with only one half
  /// inside leaves a space in that half.
  @inline(__always)
  func place(_ glyph: CanvasGlyph, columns: Int, x: Int, row: Int, style: PackedCellStyle) {
    guard columns > 1 else {
      guard x >= 0, x < width else { return }
      return store(glyph, at: row &* width &+ x, style: style)
    }
    let leftInside = x >= 0 && x < width
    let rightInside = x >= -1 && x < width - 1
    if leftInside && rightInside {
      let index = row &* width &+ x
      store(glyph.wide(true), at: index, style: style)
      store(.continuation, at: index &+ 1, style: style)
    } else if leftInside {
      store(.blank, at: row &* width &+ x, style: style)
    } else if rightInside {
      store(.blank, at: row &* width &+ x &+ 1, style: style)
    }
  }
}

extension TextCanvas {
  /// Runs `body` with the cells as buffers.
  @inline(__always)
  mutating func withCellBuffers<Result>(_ body: (CellBuffers) -> Result) -> Result {
    let width = size.width
    return glyphs.withUnsafeMutableBufferPointer { glyphs in
      styles.withUnsafeMutableBufferPointer { styles in
        body(CellBuffers(glyphs: glyphs, styles: styles, width: width))
      }
    }
  }
}
