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
      return store(glyph, at: row * width + x, style: style)
    }
    let leftInside = x >= 0 && x < width
    let rightInside = x >= -1 && x < width - 1
    if leftInside && rightInside {
      let index = row * width + x
      store(glyph.wide(true), at: index, style: style)
      store(.continuation, at: index + 1, style: style)
    } else if leftInside {
      store(.blank, at: row * width + x, style: style)
    } else if rightInside {
      store(.blank, at: row * width + x + 1, style: style)
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
