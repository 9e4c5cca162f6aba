/// Renders a ``HeadlessNode`` tree to HTML, for server-side rendering and snapshot tests.
///
///     let html = HTMLRenderer().render(screen)
///     // <div class="ripple-node" data-name="screen" style="left:0ch;top:0em;width:66ch;height:7em">…
///
/// The mapping: each node becomes a `div` with class `ripple-node`, its name in
/// `data-name`, and its frame as inline absolute-position styles in character units — one
/// cell is `1ch` wide and `1em` tall (set `line-height: 1` and a monospace font on the
/// container; ``document(_:title:)`` does). A node that has drawn gets its drawing as a
/// `pre` with class `ripple-layer`, styled runs as `span`s. Subnodes follow, back to front.
///
/// Everything that comes from the tree — names, drawn text, extra attribute values — is
/// escaped, and every attribute value is double-quoted, so no string can add markup.
///
/// - Note: Render on the thread the tree is confined to (the render loop's scheduler).
///   The renderer itself holds no state and is `Sendable`.
public struct HTMLRenderer: Sendable {
  /// Extra attributes for each node's element.
  public var attributes: @Sendable (HeadlessNode) -> [HTMLAttribute]

  /// Creates a renderer.
  ///
  /// - Parameter attributes: Extra attributes per node (`data-testid`, `aria-label`, …);
  ///   none by default.
  public init(attributes: @escaping @Sendable (HeadlessNode) -> [HTMLAttribute] = { _ in [] }) {
    self.attributes = attributes
  }

  /// Renders the tree below `root` as one `div` element.
  ///
  /// - Parameter root: The tree's root; its last drawings are used, so run a pass first.
  /// - Returns: The HTML fragment.
  /// - Complexity: O(cells + nodes).
  public func render(_ root: HeadlessNode) -> String {
    var html = ""
    render(root, into: &html, depth: 0)
    return html
  }

  /// Renders the tree as a complete HTML page, with the styles the mapping needs.
  ///
  /// - Parameters:
  ///   - root: The tree's root.
  ///   - title: The page title; escaped.
  /// - Returns: The page.
  public func document(_ root: HeadlessNode, title: String) -> String {
    """
    <!DOCTYPE html>
    <html><head><meta charset="utf-8"><title>\(HTMLEscaping.escape(title))</title>
    <style>.ripple-node{position:absolute;box-sizing:border-box}\
    .ripple-root{position:relative;font-family:monospace;line-height:1}\
    .ripple-layer{margin:0;font:inherit;white-space:pre}</style></head>
    <body><div class="ripple-root">\(render(root))</div></body></html>

    """
  }

  private func render(_ node: HeadlessNode, into html: inout String, depth: Int) {
    let indent = String(repeating: "  ", count: depth)
    let frame = node.frame
    html += "\(indent)<div class=\"ripple-node\" data-name=\"\(HTMLEscaping.escape(node.name))\""
    html += " style=\"left:\(frame.origin.x)ch;top:\(frame.origin.y)em;"
    html += "width:\(frame.size.width)ch;height:\(frame.size.height)em\""
    for attribute in attributes(node) {
      html += " \(attribute.name)=\"\(HTMLEscaping.escape(attribute.value))\""
    }
    html += ">\n"
    if let layer = node.cachedLayer {
      html += "\(indent)  <pre class=\"ripple-layer\">"
      appendLayer(layer, to: &html)
      html += "</pre>\n"
    }
    for subnode in node.subnodes { render(subnode, into: &html, depth: depth + 1) }
    html += "\(indent)</div>\n"
  }

  /// Writes the canvas row by row, one `span` per run of equally styled cells (plain runs
  /// need none), trailing plain blanks dropped.
  private func appendLayer(_ layer: TextCanvas, to html: inout String) {
    let width = layer.size.width
    for row in 0..<layer.size.height {
      if row > 0 { html += "\n" }
      var end = width
      while end > 0 {
        let (cell, style) = layer.cell(atIndex: row * width + end - 1)
        guard cell == .blank, style == .plain else { break }
        end -= 1
      }
      var column = 0
      while column < end {
        let style = layer.cell(atIndex: row * width + column).1
        var run = ""
        while column < end {
          let (cell, cellStyle) = layer.cell(atIndex: row * width + column)
          guard cellStyle == style else { break }
          switch cell {
          case .narrow(let character), .wide(let character):
            // The terminal backend's policy: a newline, tab, control or bidi control in a
            // cell would break the grid or reorder it, so it shows as `?`.
            run.append(CellText.actsOnTheTerminal(character) ? "?" : character)
          case .continuation: break  // the wide character to its left covers it
          }
          column += 1
        }
        if style == .plain {
          html += HTMLEscaping.escape(run)
        } else {
          html += "<span style=\"\(CSSStyle.declarations(for: style))\">"
          html += HTMLEscaping.escape(run) + "</span>"
        }
      }
    }
  }
}
