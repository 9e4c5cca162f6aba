import Invalidation
import InvalidationTerminal
import Testing

/// A full repaint writes exactly what diffing the frame against a blank screen writes.
@Suite struct FullRepaintTests {
  static let pieces = [
    "ab", " ", "    ", "      ", "中文", "👍🏽", "e\u{301}", "🇫🇷", "👨‍👩‍👧", "\t", "x", "→", "\u{202E}",
  ]
  static let styles = [
    CellStyle.plain, CellStyle(foreground: .standard(.cyan), attributes: .bold),
    CellStyle(background: .rgb(red: 1, green: 2, blue: 3)),
  ]

  @Test(arguments: 0..<20)
  func aFullRepaintWritesWhatADiffAgainstABlankScreenWrites(_ seed: Int) {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % bound
    }
    var frame = TextCanvas(size: Size(width: 30, height: 6))
    for _ in 0..<40 {
      let text = (0..<(1 + next(4))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
      frame.draw(
        text, at: Point(x: next(34) - 2, y: next(6)), style: Self.styles[next(Self.styles.count)])
    }
    var fresh = FrameBuffer()
    let full = fresh.update(to: frame)
    var diffing = FrameBuffer()
    let clear = diffing.update(to: TextCanvas(size: frame.size))
    let diff = diffing.update(to: frame)
    #expect(full == clear + diff)
  }
}
