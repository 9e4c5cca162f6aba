import Invalidation
import InvalidationHTML

/// A node that draws the fuzzed text.
private final class TextNode: HeadlessNode {
  var text = ""
  override func draw(in canvas: inout TextCanvas) {
    canvas.draw(text, at: Point(x: 0, y: 0))
  }
}

/// Renders `text` as a node's name, an attribute value and drawn text.
private func render(_ text: String) -> String {
  let node = TextNode(name: text, frame: Rect(x: 0, y: 0, width: 64, height: 1))
  node.text = text
  _ = node.renderPass()
  let renderer = HTMLRenderer { _ in
    (try? HTMLAttribute(name: "data-value", value: text)).map { [$0] } ?? []
  }
  return renderer.render(node)
}

/// The characters that make HTML structure, counted as Unicode scalars (as a browser
/// reads them): a combining mark after a quote makes one `Character` of the two.
private func structure(_ html: String) -> [Unicode.Scalar: Int] {
  var counts: [Unicode.Scalar: Int] = [:]
  for scalar in html.unicodeScalars where "<>\"'".unicodeScalars.contains(scalar) {
    counts[scalar, default: 0] += 1
  }
  return counts
}

/// Any text, wherever it lands, is inert: the rendered page has exactly the markup
/// characters of the same page rendered with harmless text. A difference is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let hostile = render(text)
  let harmless = render(String(repeating: "x", count: text.count))
  if structure(hostile) != structure(harmless) {
    fatalError("markup leaked from text \(text.debugDescription): \(hostile)")
  }
  return 0
}
