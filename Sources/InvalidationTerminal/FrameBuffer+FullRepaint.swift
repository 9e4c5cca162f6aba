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
            frame.withWrittenUTF8(ofCluster: glyph) {
              sink.append(contentsOf: $0, flushingTo: &bytes)
            }
            column += glyph.isWide ? 2 : 1
          } else {
            // This cell, and the run of cells after it in the same style that are one
            // scalar each (and not a plain blank, which the cursor skips): at most four
            // bytes a cell, written with no other decision.
            let runStart = start + column
            let runEnd = start + width
            sink.reserve(CanvasGlyph.scalarUTF8Limit * (runEnd - runStart), flushingTo: &bytes)
            let end = sink.withUnusedSpace { out in
              writeScalarRun(
                glyphs: glyphs.baseAddress!, styles: styles.baseAddress!, from: runStart,
                to: runEnd, pen: pen, into: out)
            }
            column = end - start
          }
          (cursorRow, cursorColumn) = (row, column)
        }
      }
    }
    sink.flush(to: &bytes)
    if pen != .plain { bytes += ANSI.resetStyle }
  }

  /// Writes the cell at `index` (one scalar, in style `pen`) and the cells after it up to
  /// `end` while they are one scalar each in style `pen`, each as
  /// `CanvasGlyph.writeScalarUTF8(to:)` writes it; `out` has room for four bytes a
  /// cell. Plain blanks (which `paint` skips) end the run, unless at most
  /// `FrameBuffer.bridge` of them lead to a cell the run would take: `paint` would write
  /// them as spaces. Kept apart so that its pointers and counters stay in registers.
  ///
  /// - Returns: The index after the run, and the bytes written.
  @inline(__always)
  static func writeScalarRun(
    glyphs: UnsafePointer<CanvasGlyph>, styles: UnsafePointer<PackedCellStyle>, from index: Int,
    to end: Int, pen: PackedCellStyle, into out: UnsafeMutablePointer<UInt8>
  ) -> (end: Int, written: Int) {
    let stopsAtBlank = pen == .plain
    var index = index
    var written = 0
    repeat {
      let glyph = glyphs[index]
      let value = glyph.raw
      if value &- 0x20 < 0x5F {
        // Printable ASCII, one column, no flag.
        out[written] = UInt8(truncatingIfNeeded: value)
        written &+= 1
        index &+= 1
      } else {
        written &+= glyph.writeScalarUTF8(to: out + written)
        index &+= glyph.isWide ? 2 : 1
      }
      guard index < end else { break }
      let next = glyphs[index]
      if styles[index] != pen || next.isCluster { break }
      if stopsAtBlank, next == .blank {
        // Plain blanks, then a cell this run would take: a gap of at most `bridge`
        // spaces is written as spaces (as `paint` would write it), and the run goes on.
        var gap = 1
        while gap <= FrameBuffer.bridge, index &+ gap < end, glyphs[index &+ gap] == .blank,
          styles[index &+ gap] == pen
        {
          gap &+= 1
        }
        guard gap <= FrameBuffer.bridge, index &+ gap < end, !glyphs[index &+ gap].isCluster,
          styles[index &+ gap] == pen
        else { break }
        for _ in 0..<gap {
          out[written] = 0x20
          written &+= 1
        }
        index &+= gap
      }
    } while true
    return (index, written)
  }
}
