import Invalidation
import InvalidationHTML
import ModelTesting
import Testing

/// The HTML backend treats a cell's text as the terminal backend does, with the same table
/// (`controlCharacters`, `printableNeighbours` in ModelTesting): a newline, a tab,
/// any C0 or C1 control and the bidi controls show as `?`, so they cannot break the grid
/// or reorder it (a title with a newline overlapped the next article; U+202E made
/// `user\u{202E}gnp.exe` display as `user…exe.png`).
@Suite struct HTMLCellTextTests {
  /// The text of the one-row layer of a node that draws `a`, `character`, `b`.
  static func layerText(_ character: Character) -> String {
    let sign = Sign(name: "sign", frame: Rect(x: 0, y: 0, width: 3, height: 1))
    sign.text = "a\(character)b"
    sign.renderPass()
    let html = HTMLRenderer().render(sign)
    let open = #"<pre class="ripple-layer">"#
    guard let start = html.range(of: open), let end = html.range(of: "</pre>") else {
      return html
    }
    return String(html[start.upperBound..<end.lowerBound])
  }

  @Test(arguments: controlCharacters)
  func aControlCharacterShowsAsOneQuestionMark(name: String, character: Character) {
    #expect(Self.layerText(character) == "a?b", "\(name)")
  }

  @Test(arguments: printableNeighbours)
  func printableCharactersShowAsThemselves(name: String, character: Character) {
    #expect(Self.layerText(character) == "a\(character)b", "\(name)")
  }
}
