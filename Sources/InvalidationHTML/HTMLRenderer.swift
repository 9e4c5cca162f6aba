import Invalidation

/// Renders a `HeadlessNode` tree to HTML: a grid of character cells, positioned in
/// `ch` and `em`, for server-generated status pages, dashboards and snapshot tests.
///
///     let html = HTMLRenderer().render(screen)
///     // <div class="ripple-node" data-name="screen" style="left:0ch;top:0em;width:66ch;height:7em">…
///
/// It draws exactly what the terminal backend shows, in a browser: text in a monospace
/// font, laid out by your nodes' frames, not by the browser. It is not a way to write
/// web pages with flowing text — lines do not wrap, a phone does not reflow the grid, and
/// text in a `pre` is read as it is drawn (box-drawing characters included).
/// See <doc:RenderingHTML>.
///
/// The mapping: each node becomes a `div` (or the
/// ``Invalidation/HeadlessNode/htmlElement`` it names) with class `ripple-node`, its name
/// in `data-name`, and its frame as inline
/// absolute-position styles in character units — one cell is `1ch` wide and `1em` tall
/// (set `line-height: 1` and a monospace font on the container;
/// ``document(_:title:lang:head:)`` does). A node that has drawn gets its drawing as a
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

  /// Renders the tree below `root` as one element (a `div` unless the root names another).
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
  /// The same as ``document(_:title:lang:head:)`` with no language and nothing added to
  /// the head.
  ///
  /// - Parameters:
  ///   - root: The tree's root.
  ///   - title: The page title; escaped.
  /// - Returns: The page.
  public func document(_ root: HeadlessNode, title: String) -> String {
    document(root, title: title, lang: nil, head: [])
  }

  /// Renders the tree as a complete HTML page, with the styles the mapping needs, the
  /// page's language and extra head content.
  ///
  ///     let page = HTMLRenderer().document(
  ///         root, title: "Status", lang: "en",
  ///         head: [.viewport, .style("body { margin: 0 }")])
  ///     // <!DOCTYPE html>
  ///     // <html lang="en"><head><meta charset="utf-8"><title>Status</title>
  ///     // …
  ///
  /// The tree is drawn in a `div` with class `ripple-root`, sized to the root's frame so
  /// that whatever follows it on the page flows below it. To take that height from the
  /// content, set `HeadlessNode.fitsHeightToContent` on the root before the pass.
  ///
  /// - Parameters:
  ///   - root: The tree's root; its last drawings are used, so run a pass first.
  ///   - title: The page title; escaped.
  ///   - lang: The page's language, such as `en` or `pt-BR`, for `<html lang>`; escaped.
  ///     `nil` leaves it out.
  ///   - head: Extra `head` content, after the renderer's own styles.
  /// - Returns: The page.
  /// - Complexity: O(cells + nodes).
  public func document(
    _ root: HeadlessNode, title: String, lang: String? = nil, head: [HTMLHeadContent] = []
  ) -> String {
    let language = lang.map { " lang=\"\(HTMLEscaping.escape($0))\"" } ?? ""
    let extra = head.map { $0.markup + "\n" }.joined()
    let width = max(0, root.frame.origin.x.saturatingAdd(root.frame.size.width))
    let height = max(0, root.frame.origin.y.saturatingAdd(root.frame.size.height))
    return """
      <!DOCTYPE html>
      <html\(language)><head><meta charset="utf-8"><title>\(HTMLEscaping.escape(title))</title>
      <style>.ripple-node{position:absolute;box-sizing:border-box;margin:0;padding:0;\
      font:inherit;list-style:none}\
      .ripple-root{position:relative;font-family:monospace;line-height:1}\
      .ripple-layer{display:block;margin:0;font:inherit;white-space:pre}</style>
      \(extra)</head>
      <body><div class="ripple-root" style="width:\(width)ch;height:\(height)em">\(render(root))</div></body></html>

      """
  }

  /// Writes `node` as the element it names, adjusted to its context: inside an element
  /// that holds only text everything is a `span`; a `ul`'s subnodes are `li`s, and an
  /// `li` elsewhere is a `div`.
  private func render(
    _ node: HeadlessNode, into html: inout String, depth: Int, inText: Bool = false,
    inList: Bool = false
  ) {
    let indent = String(repeating: "  ", count: depth)
    let named = node.htmlElement
    let element: HTMLElement =
      if inText { .div } else if inList { .li } else if named == .li { .div } else { named }
    let tag = inText ? "span" : element.name
    let holdsOnlyText = inText || element.holdsOnlyText
    let frame = node.frame
    html += "\(indent)<\(tag) class=\"ripple-node\" data-name=\"\(HTMLEscaping.escape(node.name))\""
    html += " style=\"left:\(frame.origin.x)ch;top:\(frame.origin.y)em;"
    html += "width:\(frame.size.width)ch;height:\(frame.size.height)em\""
    for attribute in attributes(node) {
      html += " \(attribute.name)=\"\(HTMLEscaping.escape(attribute.value))\""
    }
    html += ">\n"
    // A `div` keeps even a blank drawing, as it always has; the other elements are
    // mostly containers, and leave a drawing of plain blanks out.
    if let layer = node.cachedLayer, named == .div || !layer.isPlainBlank {
      let layerTag = holdsOnlyText ? "span" : "pre"
      html += "\(indent)  <\(layerTag) class=\"ripple-layer\">"
      appendLayer(layer, to: &html)
      html += "</\(layerTag)>\n"
    }
    for subnode in node.subnodes {
      render(
        subnode, into: &html, depth: depth + 1, inText: holdsOnlyText,
        inList: !holdsOnlyText && element == .ul)
    }
    html += "\(indent)</\(tag)>\n"
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

extension TextCanvas {
  /// Whether every cell is a plain blank: nothing drawn, no style.
  var isPlainBlank: Bool {
    (0..<size.width * size.height).allSatisfy { index in
      let (cell, style) = cell(atIndex: index)
      return cell == .blank && style == .plain
    }
  }
}
