/// Something to add to the `head` of a page from
/// ``HTMLRenderer/document(_:title:lang:head:)``: a `meta` element, CSS, or a linked
/// stylesheet. Each is typed and escaped, so no string can add other markup.
///
///     let page = HTMLRenderer().document(
///         root, title: "Status", lang: "en",
///         head: [.viewport, .style("body { margin: 0 }")])
public struct HTMLHeadContent: Hashable, Sendable {
  /// The markup, built only from escaped parts.
  let markup: String

  private init(markup: String) { self.markup = markup }

  /// A `meta` element with a name and content, both escaped:
  /// `<meta name="description" content="…">`.
  ///
  /// - Parameters:
  ///   - name: The metadata name, such as `description`, `author` or `theme-color`.
  ///   - content: Its value.
  /// - Returns: The element.
  public static func meta(name: String, content: String) -> HTMLHeadContent {
    HTMLHeadContent(
      markup:
        "<meta name=\"\(HTMLEscaping.escape(name))\" content=\"\(HTMLEscaping.escape(content))\">")
  }

  /// The viewport of a page meant for phones as well as desktops:
  /// `<meta name="viewport" content="width=device-width, initial-scale=1">`.
  public static let viewport = meta(
    name: "viewport", content: "width=device-width, initial-scale=1")

  /// CSS in a `style` element, after the renderer's own, so its rules can override them.
  ///
  /// A style element ends at the first `</style`, whatever the CSS means, so every `<` is
  /// written as the CSS escape `\3C ` (which CSS reads back as `<` inside strings; outside
  /// them CSS has no use for it), and control characters other than tab and newline are
  /// dropped.
  ///
  /// - Parameter css: The style sheet.
  /// - Returns: The element.
  public static func style(_ css: String) -> HTMLHeadContent {
    var escaped = ""
    escaped.reserveCapacity(css.utf8.count)
    for scalar in css.unicodeScalars {
      switch scalar {
      case "<": escaped += "\\3C "
      case "\t", "\n": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): break
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return HTMLHeadContent(markup: "<style>\(escaped)</style>")
  }

  /// A linked style sheet: `<link rel="stylesheet" href="…">`, the address escaped.
  ///
  /// - Parameter href: The style sheet's address, such as `/site.css`.
  /// - Returns: The element.
  public static func stylesheet(href: String) -> HTMLHeadContent {
    HTMLHeadContent(markup: "<link rel=\"stylesheet\" href=\"\(HTMLEscaping.escape(href))\">")
  }
}
