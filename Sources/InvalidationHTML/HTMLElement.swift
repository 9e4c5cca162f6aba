/// The element a `HeadlessNode` becomes in ``HTMLRenderer`` output: `div` by default,
/// or one of a fixed, safe vocabulary of landmarks, headings, paragraphs and lists, so a
/// page has the structure a screen reader navigates by.
///
///     let header = HeadlessNode(name: "header")
///     header.htmlElement = .header
///     // <header class="ripple-node" data-name="header" style="…">…</header>
///
/// The tag name always comes from this list, never from a string, so no node can name
/// `script`, `iframe` or a tag that would break the page. The renderer keeps the markup
/// well formed whatever the tree names:
///
/// - Inside ``h1``, ``h2``, ``h3`` and ``p``, which hold only text in HTML, the drawing and
///   every subnode become `span` elements (a `div` or `pre` there would end the paragraph
///   early in a browser).
/// - The subnodes of a ``ul`` are its items and become `li` elements; an ``li`` anywhere
///   else becomes a `div`. Leave drawing to the items: a list's own drawing is kept, but
///   a `pre` directly in a `ul` is not valid HTML.
public struct HTMLElement: Hashable, Sendable, CustomStringConvertible {
  /// The tag name, such as `header`.
  public let name: String

  private init(_ name: String) { self.name = name }

  /// A `div`: no meaning of its own; the default.
  public static let div = HTMLElement("div")
  /// A `header`: introductory content, the page's banner landmark at the top level.
  public static let header = HTMLElement("header")
  /// A `nav`: a navigation landmark.
  public static let nav = HTMLElement("nav")
  /// A `main`: the main content landmark; one per page.
  public static let main = HTMLElement("main")
  /// An `article`: a self-contained composition, such as a post or a card.
  public static let article = HTMLElement("article")
  /// A `section`: a thematic group of content, usually with a heading.
  public static let section = HTMLElement("section")
  /// A `footer`: closing content, the page's content-info landmark at the top level.
  public static let footer = HTMLElement("footer")
  /// An `h1`: a top-level heading.
  public static let h1 = HTMLElement("h1")
  /// An `h2`: a second-level heading.
  public static let h2 = HTMLElement("h2")
  /// An `h3`: a third-level heading.
  public static let h3 = HTMLElement("h3")
  /// A `p`: a paragraph.
  public static let p = HTMLElement("p")
  /// A `ul`: a list; its subnodes are its items.
  public static let ul = HTMLElement("ul")
  /// An `li`: an item of a ``ul``.
  public static let li = HTMLElement("li")

  /// Every element a node can name, `div` first.
  public static let allCases: [HTMLElement] = [
    .div, .header, .nav, .main, .article, .section, .footer, .h1, .h2, .h3, .p, .ul, .li,
  ]

  /// The tag name.
  public var description: String { name }

  /// Whether HTML allows only text (phrasing content) inside the element.
  var holdsOnlyText: Bool { self == .h1 || self == .h2 || self == .h3 || self == .p }
}
