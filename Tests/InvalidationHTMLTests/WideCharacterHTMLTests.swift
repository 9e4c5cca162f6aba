import Invalidation
import InvalidationHTML
import Testing

@Suite struct WideCharacterHTMLTests {
  @Test func htmlShowsEachWideCharacterOnce() {
    let sign = Sign(name: "sign", frame: Rect(x: 0, y: 0, width: 10, height: 1))
    sign.text = "買い物 🛒!"
    sign.renderPass()
    #expect(HTMLRenderer().render(sign).contains(">買い物 🛒!</pre>"))
  }
}
