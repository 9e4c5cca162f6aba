import Ripple

/// Issue 27's `terminal_full_repaint`: a full repaint of a 200×60 screen of mixed-width
/// text (ASCII, CJK, emoji with and without a skin tone, precomposed and decomposed
/// accents) through the terminal backend, against a hand-written formatter of the same
/// rows.
public enum TerminalRepaintWorkloads {
  /// The screen's size in cells.
  static let width = 200
  static let height = 60

  /// The style of every fourth row (a header, or a selected row).
  static let headerStyle = CellStyle(foreground: .standard(.cyan), attributes: .bold)

  /// The pieces the rows are made of: one, two and zero-width-joined columns.
  static let pieces = [
    "買い物 🛒", "café", "naïve résumé", "👍🏽 ok", "データ同期", "e\u{301}te\u{301}", "東京 → 大阪",
    "🎉 done", "São Paulo", "한국어", "plain ascii text", "Zürich 12°C", "👨‍👩‍👧 family",
    "🇫🇷 flag", "日本語のテキスト", "item #42",
  ]

  /// Row `row`'s text: the pieces from a shifting start, filled to exactly `width`
  /// columns (a wide character that would cross the edge becomes a space, as
  /// `TextCanvas` draws it).
  static func text(ofRow row: Int) -> String {
    var text = "\(row): "
    var columns = text.terminalColumns
    var index = row
    outer: while true {
      for character in pieces[index % pieces.count] + " " {
        let next = character.terminalColumns
        if columns + next > width {
          text += String(repeating: " ", count: width - columns)
          break outer
        }
        text.append(character)
        columns += next
      }
      index += 1
    }
    return text
  }

  /// Each row's text and style.
  static let rows: [(text: String, style: CellStyle)] = (0..<height).map { row in
    (text(ofRow: row), row % 4 == 0 ? headerStyle : .plain)
  }

  /// One row of the screen: draws its text in its style.
  final class Row: HeadlessNode {
    let text: String
    let style: CellStyle

    init(row: Int) {
      (text, style) = TerminalRepaintWorkloads.rows[row]
      super.init(frame: Rect(x: 0, y: row, width: TerminalRepaintWorkloads.width, height: 1))
    }

    override func draw(in canvas: inout TextCanvas) {
      canvas.draw(text, at: .zero, style: style)
    }
  }

  // The benchmark runs on one thread; the screen lives for the whole process.
  nonisolated(unsafe) static let screen:
    (rows: [Row], scheduler: TestScheduler, backend: TerminalBackend<TestScheduler>) = {
      let root = HeadlessNode(frame: Rect(x: 0, y: 0, width: width, height: height))
      let rows = (0..<height).map(Row.init(row:))
      for row in rows { root.addSubnode(row) }
      let scheduler = TestScheduler()
      let loop = RenderLoop(root: root, scheduler: scheduler)
      let backend = TerminalBackend(
        loop: loop, writer: TerminalWriter { bytes in blackHole &+= bytes.count })
      scheduler.advance()
      return (rows, scheduler, backend)
    }()

  /// `terminal_full_repaint`, Ripple's side: per operation, every row redraws its text
  /// into its layer, and the backend repaints the whole screen (one pass: draw, composite,
  /// diff against a blank screen, format, write).
  public static func fullRepaint(_ n: Int) {
    let (rows, scheduler, backend) = screen
    for _ in 0..<n {
      for row in rows { row.setNeedsDisplay() }
      backend.repaint()
      scheduler.advance()
    }
  }

  /// `terminal_full_repaint`, the baseline: the same rows formatted by hand into one
  /// buffer per frame.
  public static func handWrittenRepaint(_ n: Int) {
    for _ in 0..<n { blackHole &+= handWrittenFrame().count }
  }

  /// One full frame by hand: clear the screen, then per row a cursor move, the row's
  /// style when it differs from the last, and its text; the default style at the end.
  static func handWrittenFrame() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32_768)
    bytes += clearScreen
    var pen = CellStyle.plain
    for (index, row) in rows.enumerated() {
      // ESC [ row ; 1 H
      bytes += [0x1B, 0x5B]
      appendDecimal(index + 1, to: &bytes)
      bytes += [0x3B, 0x31, 0x48]
      if row.style != pen {
        bytes += row.style == .plain ? plainStyle : headerSelect
        pen = row.style
      }
      bytes += row.text.utf8
    }
    if pen != .plain { bytes += plainStyle }
    return bytes
  }

  static let clearScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[2J".utf8)
  static let plainStyle: [UInt8] = Array("\u{1B}[0m".utf8)
  static let headerSelect: [UInt8] = Array("\u{1B}[0;1;36m".utf8)

  static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
    if value >= 10 { appendDecimal(value / 10, to: &bytes) }
    bytes.append(0x30 + UInt8(value % 10))
  }

  /// Bytes per full frame: the backend's and the hand-written one's.
  public static func frameBytes() -> (ripple: Int, baseline: Int) {
    fullRepaint(1)
    return (screen.backend.lastFrameBytes, handWrittenFrame().count)
  }
}
