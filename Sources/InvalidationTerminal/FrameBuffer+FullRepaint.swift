import Invalidation

extension FrameBuffer {
  /// The bytes of a full repaint after the screen is cleared: every cell but a plain
  /// blank, row by row, each run after one cursor move. The same bytes as diffing `frame`
  /// against a blank screen, in one pass: the cells skipped are plain blanks, so the
  /// short gaps between runs that a diff rewrites instead of moving the cursor are
  /// spaces, written while the pen is plain.
  static func paint(_ frame: TextCanvas, into bytes: inout [UInt8]) {
    let width = frame.size.width
    let height = frame.size.height
    var sink = ByteSink()
    var pen = PackedCellStyle.plain
    // Where the cursor is: after the last cell written, or nowhere known (row -1).
    var cursorRow = -1
    var cursorColumn = 0
    frame.withCells { glyphs, styles in
      for row in 0..<height {
        let start = row * width
        var column = 0
        while column < width {
          let glyph = glyphs[start + column]
          let style = styles[start + column]
          if glyph == .blank, style == .plain {
            column += 1
            continue
          }
          // A continuation is never reached: its wide character, written before it,
          // moved past it.
          if cursorRow != row || cursorColumn != column {
            let gap = column - cursorColumn
            if cursorRow == row, gap > 0, gap <= FrameBuffer.bridge, pen == .plain {
              sink.reserve(gap, flushingTo: &bytes)
              for _ in 0..<gap { sink.append(0x20) }
            } else {
              sink.flush(to: &bytes)
              ANSI.moveCursor(toColumn: column, row: row, into: &bytes)
            }
          }
          if style != pen {
            sink.flush(to: &bytes)
            ANSI.select(style.style, into: &bytes)
            pen = style
          }
          if glyph.isCluster {
            sink.flush(to: &bytes)
            frame.appendUTF8(of: glyph, to: &bytes)
            column += glyph.isWide ? 2 : 1
          } else {
            // This cell, and the run of cells after it in the same style that are one
            // scalar each and not blank: a byte to four each, no other decision.
            sink.reserve(ByteSink.glyphLimit, flushingTo: &bytes)
            sink.appendUTF8(ofScalarGlyph: glyph)
            column += glyph.isWide ? 2 : 1
            while column < width {
              let next = glyphs[start + column]
              guard styles[start + column] == pen, next != .blank, !next.isCluster else { break }
              sink.reserve(ByteSink.glyphLimit, flushingTo: &bytes)
              sink.appendUTF8(ofScalarGlyph: next)
              column += next.isWide ? 2 : 1
            }
          }
          (cursorRow, cursorColumn) = (row, column)
        }
      }
    }
    sink.flush(to: &bytes)
    if pen != .plain { bytes += ANSI.resetStyle }
  }
}
