import Foundation
import Invalidation
import InvalidationHTML
import Testing

/// A node that draws the fuzzed text, as in the fuzz target.
private final class FuzzTextNode: HeadlessNode {
  var text = ""
  override func draw(in canvas: inout TextCanvas) {
    canvas.draw(text, at: Point(x: 0, y: 0))
  }
}

/// Replays the `FuzzHTMLEscaping` libFuzzer target's corpus in `swift test`, with the
/// target's oracle (`Fuzz/Sources/FuzzHTMLEscaping/FuzzHTMLEscaping.swift`): any text,
/// rendered as a node's name, an attribute value and drawn text, leaves the page with
/// exactly the markup characters (`<`, `>`, `"`, `'`, counted as Unicode scalars) of the
/// same page rendered with harmless text.
///
/// Every file in `Fuzz/Corpus/HTMLEscaping` is a test case here, found at run time: every
/// crash libFuzzer finds is to be saved into that corpus folder (`.ci/fuzz` prints the
/// failing input in base64; decode it into a new file there), so it becomes a regression
/// test here automatically, with no test code to write.
///
/// The time limit catches a case that never ends (a parser or escaper in a loop). It is
/// ten minutes, not one, because the limit also counts the time a case waits for a thread
/// while the rest of the suite runs in parallel on CI's two cores. In stop 39's CI, both
/// fuzz suites took 57 s in the plain run, and under the thread sanitizer every case of
/// the HTML suite hit a one-minute limit at once, 262 s into a 267 s run.
@Suite(.timeLimit(.minutes(10))) struct FuzzCorpusHTMLEscapingTests {
  /// `Fuzz/Corpus/HTMLEscaping`, from this file's place in the repository.
  static let corpusFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // InvalidationHTMLTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the repository
    .appendingPathComponent("Fuzz/Corpus/HTMLEscaping")

  /// The corpus files' names, sorted; hidden files are skipped.
  static let corpus: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)) ?? [])
    .filter { !$0.hasPrefix(".") }
    .sorted()

  /// Renders `text` as a node's name, an attribute value and drawn text.
  static func render(_ text: String) -> String {
    let node = FuzzTextNode(name: text, frame: Rect(x: 0, y: 0, width: 64, height: 1))
    node.text = text
    _ = node.renderPass()
    let renderer = HTMLRenderer { _ in
      (try? HTMLAttribute(name: "data-value", value: text)).map { [$0] } ?? []
    }
    return renderer.render(node)
  }

  /// The characters that make HTML structure, counted as Unicode scalars (as a browser
  /// reads them): a combining mark after a quote makes one `Character` of the two.
  static func structure(_ html: String) -> [Unicode.Scalar: Int] {
    var counts: [Unicode.Scalar: Int] = [:]
    for scalar in html.unicodeScalars where "<>\"'".unicodeScalars.contains(scalar) {
      counts[scalar, default: 0] += 1
    }
    return counts
  }

  /// The fuzz target's oracle on raw bytes (decoded as the target decodes them); returns
  /// the hostile page when markup leaked, `nil` when it held.
  static func leak(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    let hostile = render(text)
    let harmless = render(String(repeating: "x", count: text.count))
    return structure(hostile) == structure(harmless) ? nil : hostile
  }

  @Test func theCorpusIsFound() {
    #expect(Self.corpus.contains("script.txt"), "no corpus at \(Self.corpusFolder.path)")
  }

  /// The oracle is not vacuous: the text reaches the page (escaped), and raw markup in a
  /// page would change its structure.
  @Test func theOracleSeesTheTextAndWouldCatchALeak() {
    let page = Self.render("<b>\"it's\"</b>")
    #expect(page.contains("&lt;b&gt;&quot;it&#39;s&quot;&lt;/b&gt;"))
    #expect(Self.structure(page + "<b>") != Self.structure(page))
    #expect(Self.structure("\"\u{301}") == ["\"": 1])
  }

  @Test(arguments: corpus)
  func corpusTextLeavesTheMarkupUnchanged(_ name: String) throws {
    let bytes = try Data(contentsOf: Self.corpusFolder.appendingPathComponent(name))
    let leaked = Self.leak(Array(bytes))
    #expect(leaked == nil, "\(name): markup leaked: \(leaked ?? "")")
  }

  /// Hand-written adversarial inputs in the corpus's style.
  static let adversarial: [(name: String, text: [UInt8])] = [
    ("markup runs", Array(String(repeating: "\"'<>&", count: 200).utf8)),
    (
      "combining marks on every markup character",
      Array("\"\u{301}'\u{301}<\u{338}>\u{20DD}&\u{301}".utf8)
    ),
    (
      "stacked combining marks after a quote",
      Array(("\"" + String(repeating: "\u{301}\u{302}\u{303}", count: 50) + "'").utf8)
    ),
    (
      "C0 and C1 controls",
      Array("a\u{0}b\u{1}\u{7}\u{8}\u{B}\u{C}\u{D}\u{1B}[31m\u{7F}\u{80}\u{9F}<\u{0}>".utf8)
    ),
    ("CR LF and tabs around quotes", Array("\"\r\n'\t<\r>\n".utf8)),
    ("already escaped entities", Array("&amp;&lt;script&gt;&quot;&#39;&#x3C;".utf8)),
    ("closing tags and comments", Array("</div></script><!-- --><![CDATA[ ]]>".utf8)),
    ("attribute breakout", Array("\" onmouseover=\"alert(1)\" x='".utf8)),
    ("bidirectional overrides", Array("\u{202E}\"<>'\u{202C}\u{2066}&\u{2069}".utf8)),
    ("emoji ZWJ sequences next to quotes", Array("\"👩‍👩‍👧‍👦'<🏳️‍🌈>".utf8)),
    ("fullwidth and lookalike brackets", Array("＜script＞‹›«»\u{2039}\u{FF02}\u{FF07}".utf8)),
    (
      "invalid UTF-8 around markup",
      [0xFF, 0x22, 0xC0, 0x3C, 0xE2, 0x80, 0x3E, 0xED, 0xA0, 0x80, 0x27]
    ),
    ("overlong encodings of < and \"", [0xC0, 0xBC, 0xE0, 0x80, 0xBC, 0xC0, 0xA2]),
    ("longer than the frame", Array((String(repeating: "x", count: 63) + "<\"'>").utf8)),
    ("empty", []),
  ]

  @Test(arguments: adversarial.indices)
  func adversarialTextLeavesTheMarkupUnchanged(_ index: Int) {
    let (name, bytes) = Self.adversarial[index]
    let leaked = Self.leak(bytes)
    #expect(leaked == nil, "\(name): markup leaked: \(leaked ?? "")")
    // Beyond the fuzz oracle: no control character other than tab and newline survives
    // into the page (the escaping replaces them with U+FFFD).
    let page = Self.render(String(decoding: bytes, as: UTF8.self))
    let controls = page.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\t" && $0 != "\n") || (0x7F...0x9F).contains($0.value)
    }
    #expect(controls.isEmpty, "\(name): control characters in the page: \(controls.map(\.value))")
  }
}
