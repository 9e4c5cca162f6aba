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
    let previous: TextCanvas
    if let shown, shown.size == frame.size {
      if shown == frame { return [] }
      previous = shown
    } else {
      bytes += ANSI.clearScreen
      previous = TextCanvas(size: frame.size)
    }
    var writer = DiffWriter()
    let width = frame.size.width
    for row in 0..<frame.size.height {
      var column = 0
      while column < width {
        let index = row * width + column
        let (new, style) = frame.cell(atIndex: index)
        let old = previous.cell(atIndex: index)
        guard new != old.0 || style != old.1 else {
          column += 1
          continue
        }
        switch new {
        case .narrow(let character):
          writer.write(
            character, columns: 1, style, column: column, row: row, frame: frame, into: &bytes)
          column += 1
        case .wide(let character):
          // Written once; the terminal fills its continuation cell.
          writer.write(
            character, columns: 2, style, column: column, row: row, frame: frame, into: &bytes)
          column += 2
        case .continuation:
          // Only this half changed (the screen lost the wide character): write it again.
          if case (.wide(let character), let leadStyle) = frame.cell(atIndex: index - 1) {
            writer.write(
              character, columns: 2, leadStyle, column: column - 1, row: row, frame: frame,
              into: &bytes)
          }
          column += 1
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
  var cursor: (column: Int, row: Int)?
  var pen = CellStyle.plain

  /// At most this many unchanged cells are rewritten to bridge two changes on a row,
  /// instead of a cursor move (which costs at least six bytes).
  private static let bridge = 4

  mutating func write(
    _ character: Character, columns: Int, _ style: CellStyle, column: Int, row: Int,
    frame: TextCanvas, into bytes: inout [UInt8]
  ) {
    if let cursor, cursor.row == row, cursor.column <= column,
      column - cursor.column <= Self.bridge
    {
      // Rewrite the unchanged cells in between if they are plain one-column ASCII that
      // needs no style change.
      let width = frame.size.width
      let gap = (cursor.column..<column).map { frame.cell(atIndex: row * width + $0) }
      let bridgeable = gap.allSatisfy { cell, style in
        guard style == pen, case .narrow(let character) = cell else { return false }
        return character.unicodeScalars.allSatisfy(\.isASCII)
      }
      if bridgeable {
        for case (.narrow(let character), _) in gap { put(character, into: &bytes) }
      } else {
        ANSI.moveCursor(toColumn: column, row: row, into: &bytes)
      }
    } else {
      ANSI.moveCursor(toColumn: column, row: row, into: &bytes)
    }
    if style != pen {
      ANSI.select(style, into: &bytes)
      pen = style
    }
    put(character, into: &bytes)
    cursor = (column + columns, row)
  }

  private mutating func put(_ character: Character, into bytes: inout [UInt8]) {
    if CellText.actsOnTheTerminal(character) {
      bytes.append(CellText.replacement)
    } else {
      bytes += character.utf8
    }
  }

  mutating func finish(into bytes: inout [UInt8]) {
    if pen != .plain { bytes += ANSI.resetStyle }
  }
}
