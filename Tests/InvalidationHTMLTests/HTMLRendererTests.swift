import Invalidation
import InvalidationHTML
import Testing

/// Draws whatever text it is given, in a style.
final class Sign: HeadlessNode {
  var text = ""
  var style = CellStyle.plain
  override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero, style: style) }
}

/// Strings an attacker would try, each of which must come out inert.
let hostileStrings = [
  "<script>alert(1)</script>",
  "\"><img src=x onerror=alert(1)>",
  "' onmouseover='alert(1)",
  "</pre></div><script>x</script>",
  "&lt;already escaped&gt; & more",
  "<!-- comment --><![CDATA[x]]>",
  "\u{0}\u{7}\u{1B}[31mcontrol\u{7F}",
]

/// The HTML with every tag the renderer itself writes removed: what is left must have no
/// `<`, `>` or raw quote that came from the tree.
func strippingRendererTags(_ html: String) -> String {
  var rest = html
  for pattern in [
    #"<div class="ripple-node" data-name="[^"<>]*" style="[^"<>]*"( [a-z:._-]+="[^"<>]*")*>"#,
    #"<pre class="ripple-layer">"#, #"</pre>"#, #"</div>"#, #"<span style="[^"<>]*">"#, #"</span>"#,
  ] {
    rest = rest.replacing(try! Regex(pattern), with: "")
  }
  return rest
}

@Suite struct HTMLRendererTests {
  @Test func rendersNestedElementsWithFramesAsInlineStyles() {
    let root = Column(name: "screen", frame: Rect(x: 0, y: 0, width: 8, height: 2))
    let sign = Sign(name: "sign")
    sign.text = "hi"
    root.addSubnode(sign)
    root.renderPass()
    let html = HTMLRenderer().render(root)
    #expect(
      html == """
        <div class="ripple-node" data-name="screen" style="left:0ch;top:0em;width:8ch;height:2em">
          <pre class="ripple-layer">
        </pre>
          <div class="ripple-node" data-name="sign" style="left:0ch;top:0em;width:8ch;height:1em">
            <pre class="ripple-layer">hi</pre>
          </div>
        </div>

        """)
  }

  @Test(arguments: hostileStrings)
  func hostileTextIsEscaped(text: String) {
    let sign = Sign(name: text, frame: Rect(x: 0, y: 0, width: 40, height: 1))
    sign.text = text
    sign.style = CellStyle(foreground: .standard(.red), attributes: .bold)
    sign.renderPass()
    let attribute = try! HTMLAttribute(name: "data-testid", value: text)
    let html = HTMLRenderer(attributes: { _ in [attribute] }).render(sign)
    let left = strippingRendererTags(html)
    #expect(!left.contains("<"))
    #expect(!left.contains(">"))
    #expect(!left.contains("\""))
    #expect(!left.contains("'"))
    #expect(!html.lowercased().contains("<script"))
    #expect(!html.contains("\u{0}") && !html.contains("\u{1B}"))
    if text.contains("&") { #expect(html.contains("&amp;")) }
  }

  @Test func theDocumentEscapesItsTitle() {
    let sign = Sign(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    sign.renderPass()
    let page = HTMLRenderer().document(sign, title: "</title><script>x</script>")
    #expect(page.contains("<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>"))
    #expect(page.hasPrefix("<!DOCTYPE html>"))
  }

  @Test(arguments: [
    ("", HTMLRenderingError.invalidAttributeName("")),
    ("data-x\" onclick=\"y", .invalidAttributeName("data-x\" onclick=\"y")),
    ("a b", .invalidAttributeName("a b")),
    ("1abc", .invalidAttributeName("1abc")),
    ("data-<x>", .invalidAttributeName("data-<x>")),
    ("onclick", .reservedAttributeName("onclick")),
    ("OnLoad", .reservedAttributeName("OnLoad")),
    ("style", .reservedAttributeName("style")),
    ("class", .reservedAttributeName("class")),
  ])
  func badAttributeNamesAreRejected(name: String, error: HTMLRenderingError) {
    #expect(throws: error) { try HTMLAttribute(name: name, value: "v") }
  }

  @Test func goodAttributeNamesAreAccepted() throws {
    for name in ["data-testid", "aria-label", "xml:lang", "data.v_2"] {
      #expect(try HTMLAttribute(name: name, value: "v").name == name)
    }
  }

  @Test func styledRunsBecomeSpans() {
    let sign = Sign(frame: Rect(x: 0, y: 0, width: 6, height: 1))
    sign.text = "ok"
    sign.style = CellStyle(
      foreground: .rgb(red: 1, green: 2, blue: 255), background: .palette(196),
      attributes: [.underline])
    sign.renderPass()
    let html = HTMLRenderer().render(sign)
    #expect(
      html.contains(
        #"<span style="color:#0102ff;background-color:#ff0000;text-decoration:underline">ok</span>"#
      ))
  }
}
