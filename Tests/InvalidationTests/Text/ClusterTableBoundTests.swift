import Testing

@testable import Invalidation

/// A node redraws into its last layer, whose cluster table it keeps (characters drawn
/// again are found there): a node that draws new characters on every frame must still
/// keep a table no larger than its cells allow, and show what it drew last.
@Suite struct ClusterTableBoundTests {
  private final class Ticker: HeadlessNode {
    var text = ""
    override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero) }
  }

  @Test func aLayerRedrawnWithNewCharactersKeepsItsTableBounded() {
    let ticker = Ticker(frame: Rect(x: 0, y: 0, width: 8, height: 1))
    // Letters with a combining mark: characters of two scalars, a cluster each.
    let letters = (0..<26).map { Character(Unicode.Scalar(0x61 + $0)!) }
    let marks: [Unicode.Scalar] = ["\u{300}", "\u{301}", "\u{302}", "\u{303}", "\u{308}"]
    var largest = 0
    for frame in 0..<2_000 {
      let letter = letters[frame % letters.count]
      let mark = marks[(frame / letters.count) % marks.count]
      ticker.text = String(letter) + String(mark) + "x"
      ticker.setNeedsDisplay()
      ticker.displayIfNeeded()
      let layer = ticker.snapshot()
      largest = max(largest, layer.clusters.count)
      #expect(layer.lines == [ticker.text])
    }
    // At most the compaction bound (64, or the cells) plus the one drawn since.
    #expect(largest <= 65)
  }
}
