import Invalidation
import Testing

/// Compositing copies cells as they are; it must give what setting each of the other
/// canvas's characters at its place gives (clipping, wide characters cut by an edge or
/// drawn over, characters of several scalars).
@Suite struct CompositeTests {
  static let pieces = [
    "ab", " ", "中文", "👍🏽", "e\u{301}", "🇫🇷", "👨‍👩‍👧", "x", "→", "한", "\t", "🛒", "é",
  ]
  static let styles = [
    CellStyle.plain, CellStyle(foreground: .standard(.cyan), attributes: .bold),
    CellStyle(background: .palette(7)),
  ]

  @Test(arguments: 0..<16)
  func compositingMatchesSettingEachCharacter(_ seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed) &+ 0xC0FFEE)
    func canvas(_ size: Size) -> TextCanvas {
      var canvas = TextCanvas(size: size)
      for _ in 0..<(size.width * size.height / 3) {
        let text = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
          Self.pieces.randomElement(using: &generator)!
        }.joined()
        canvas.draw(
          text,
          at: Point(
            x: Int.random(in: -2..<size.width, using: &generator),
            y: Int.random(in: 0..<size.height, using: &generator)),
          style: Self.styles.randomElement(using: &generator)!)
      }
      return canvas
    }
    for _ in 0..<40 {
      let base = canvas(Size(width: 12, height: 4))
      let stamp = canvas(
        Size(
          width: Int.random(in: 1...14, using: &generator),
          height: Int.random(in: 1...5, using: &generator)))
      let point = Point(
        x: Int.random(in: -6...12, using: &generator), y: Int.random(in: -3...4, using: &generator))
      var composited = base
      composited.composite(stamp, at: point)
      var reference = base
      for y in 0..<stamp.size.height {
        for x in 0..<stamp.size.width {
          let cell = Point(x: x, y: y)
          guard let character = stamp[cell] else { continue }
          reference.set(
            character, at: Point(x: point.x + x, y: point.y + y), style: stamp.style(at: cell)!)
        }
      }
      #expect(composited == reference, "\(stamp.lines) at \(point) on \(base.lines)")
      #expect(composited.lines == reference.lines)
    }
  }
}
