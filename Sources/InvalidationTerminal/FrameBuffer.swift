import Invalidation

/// What the terminal shows, and the bytes that turn it into the next frame: only the
/// cells that changed are written.
///
///     var buffer = FrameBuffer()
///     let first = buffer.update(to: frame)     // clears and paints every non-blank cell
///     let idle = buffer.update(to: frame)      // [] — nothing changed, nothing written
///
/// The first frame, a frame of another size, and the frame after ``invalidate()`` are
/// full repaints: clear the screen, then write every cell that is not a plain blank.
/// Other frames write, row by row, each run of changed cells after one cursor move — or,
/// when that is shorter, by rewriting the few unchanged cells between two changes. Styles
/// are selected only when they change, and the frame ends in the default style.
///
/// A wide character (see `TextCanvas`) is written once, from its left cell, and the
/// terminal fills both; since a canvas never holds half of one, and a changed half is
/// written with its whole character, no half of a wide character is left on the screen
/// and the buffer's idea of the screen stays exact.
///
/// Cell text never acts on the terminal: a control character (C0, DEL, C1 U+0080–U+009F)
/// or a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) is
/// written as `?`, one column, so no label can start an escape sequence, move the cursor
/// or reorder the row. The buffer's own sequences are 7-bit (`ESC [`, never the one-byte
/// CSI U+009B).
///
/// - Note: A value type with no thread affinity; the ``TerminalBackend`` keeps one on its
///   loop's scheduler.
public struct FrameBuffer: Sendable {
  /// At most this many unchanged cells are rewritten to bridge two changes on a row,
  /// instead of a cursor move (which costs at least six bytes).
  static let bridge = 4

  /// The frame the terminal shows, or `nil` before the first frame and after
  /// ``invalidate()``.
  public private(set) var shown: TextCanvas?

  /// Creates a buffer for a terminal whose contents are unknown.
  public init() {}

  /// Forgets what the terminal shows, so that the next frame repaints it in full (after a
  /// resize, or anything else that may have drawn on the screen).
  public mutating func invalidate() { shown = nil }

  /// The bytes that change the screen from the frame shown to `frame`, which becomes the
  /// frame shown.
  ///
  /// - Parameter frame: The next frame.
  /// - Returns: The bytes to write; empty when nothing changed.
  /// - Complexity: O(cells).
  public mutating func update(to frame: TextCanvas) -> [UInt8] {
    var bytes: [UInt8] = []
    guard let previous = shown, previous.size == frame.size else {
      // A full repaint writes about a byte or two a cell: room for it at once.
      bytes.reserveCapacity(frame.size.width * frame.size.height * 2)
      bytes += ANSI.clearScreen
      Self.paint(frame, into: &bytes)
      shown = frame
      return bytes
    }
    if previous == frame { return [] }
    var writer = DiffWriter()
    let width = frame.size.width
    for row in 0..<frame.size.height {
      var column = 0
      while column < width {
        let index = row * width + column
        let glyph = frame.glyph(atIndex: index)
        let style = frame.packedStyle(atIndex: index)
        if frame.hasIdenticalGlyph(atIndex: index, as: previous)
          && style == previous.packedStyle(atIndex: index)
        {
          column += 1
        } else if glyph.isContinuation {
          // Only this half changed (the screen lost the wide character): write it again.
          let lead = frame.glyph(atIndex: index - 1)
          if lead.isWide {
            writer.write(
              lead, columns: 2, frame.packedStyle(atIndex: index - 1), column: column - 1,
              row: row, frame: frame, into: &bytes)
          }
          column += 1
        } else {
          // A wide character is written once; the terminal fills its continuation cell.
          let columns = glyph.isWide ? 2 : 1
          writer.write(
            glyph, columns: columns, style, column: column, row: row, frame: frame, into: &bytes)
          column += columns
        }
      }
    }
    writer.finish(into: &bytes)
    shown = frame
    return bytes
  }
}

/// The cursor and pen while a frame is written.
private struct DiffWriter {
  /// Where the cursor is: after the last cell written, or nowhere known (row -1).
  var cursorColumn = 0
  var cursorRow = -1
  var pen = PackedCellStyle.plain

  @inline(__always)
  mutating func write(
    _ glyph: CanvasGlyph, columns: Int, _ style: PackedCellStyle, column: Int, row: Int,
    frame: TextCanvas, into bytes: inout [UInt8]
  ) {
    if cursorColumn != column || cursorRow != row {
      move(toColumn: column, row: row, frame: frame, into: &bytes)
    }
    if style != pen {
      ANSI.select(style.style, into: &bytes)
      pen = style
    }
    frame.appendUTF8(of: glyph, to: &bytes)
    cursorColumn = column &+ columns
    cursorRow = row
  }

  /// Brings the cursor to `column` of `row`: by rewriting the few unchanged cells in
  /// between when they are plain one-column ASCII that needs no style change, else by a
  /// cursor move.
  mutating func move(toColumn column: Int, row: Int, frame: TextCanvas, into bytes: inout [UInt8]) {
    if cursorRow == row, cursorColumn < column, column - cursorColumn <= FrameBuffer.bridge {
      let start = row * frame.size.width
      let gap = (start + cursorColumn)..<(start + column)
      let bridgeable = gap.allSatisfy { index in
        frame.glyph(atIndex: index).isPrintableASCII && frame.packedStyle(atIndex: index) == pen
      }
      if bridgeable {
        for index in gap { frame.appendUTF8(of: frame.glyph(atIndex: index), to: &bytes) }
        return
      }
    }
    ANSI.moveCursor(toColumn: column, row: row, into: &bytes)
  }

  mutating func finish(into bytes: inout [UInt8]) {
    if pen != .plain { bytes += ANSI.resetStyle }
  }
}
