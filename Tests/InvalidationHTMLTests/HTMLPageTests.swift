import Foundation
import Invalidation
import InvalidationHTML
import ReactiveCore
import Testing

/// Stacks its subnodes top to bottom, each as tall as its intrinsic height and as wide as
/// the stack: the layout of a page.
final class PageStack: HeadlessNode {
  override func layout() {
    var y = 0
    for node in subnodes {
      let height = node.intrinsicContentSize.height
      node.frame = Rect(x: 0, y: y, width: bounds.size.width, height: height)
      y += height
    }
  }
}

/// One row of text, padded to the node's width so that a background fills the row.
final class PageLine: HeadlessNode {
  var text = ""
  var style = CellStyle.plain
  convenience init(_ text: String, name: String, element: HTMLElement, style: CellStyle = .plain) {
    self.init(name: name)
    self.text = text
    self.style = style
    htmlElement = element
  }
  override var intrinsicContentSize: Size { Size(width: frame.size.width, height: 1) }
  override func draw(in canvas: inout TextCanvas) {
    let padding = max(0, bounds.size.width - text.count)
    canvas.draw(text + String(repeating: " ", count: padding), at: .zero, style: style)
  }
}

/// A whole page: landmarks, a heading, a list and a paragraph, with the root's height
/// taken from its content.
func makeSnapshotPage() -> HeadlessNode {
  let page = PageStack(name: "page", frame: Rect(x: 0, y: 0, width: 24, height: 0))
  page.fitsHeightToContent = true
  let header = PageStack(name: "header")
  header.htmlElement = .header
  header.fitsHeightToContent = true
  header.addSubnode(
    PageLine(
      "Ripple", name: "title", element: .h1,
      style: CellStyle(
        foreground: .bright(.white), background: .rgb(red: 0, green: 0, blue: 255),
        attributes: .bold)))
  let main = PageStack(name: "main")
  main.htmlElement = .main
  main.fitsHeightToContent = true
  let list = PageStack(name: "list")
  list.htmlElement = .ul
  list.fitsHeightToContent = true
  list.addSubnode(PageLine("* one", name: "one", element: .li))
  list.addSubnode(PageLine("* two", name: "two", element: .div))
  main.addSubnode(list)
  main.addSubnode(PageLine("a < b & c", name: "note", element: .p))
  let footer = PageLine(
    "(c) 2026", name: "footer", element: .footer,
    style: CellStyle(foreground: .standard(.black), background: .rgb(red: 255, green: 0, blue: 0)))
  for node in [header, main, footer] { page.addSubnode(node) }
  page.renderPass()
  return page
}

/// The snapshot page as HTML, with a language, a viewport and CSS in the head.
func snapshotPageHTML() -> String {
  HTMLRenderer().document(
    makeSnapshotPage(), title: "Ripple & friends", lang: "en",
    head: [.viewport, .style("body{margin:0;background:#fff} .ripple-root{font-size:16px}")])
}

@Suite struct HTMLPageTests {
  @Test func aWholePage() throws {
    let page = snapshotPageHTML()
    if let path = ProcessInfo.processInfo.environment["RIPPLE_HTML_PAGE_OUT"] {
      try page.write(toFile: path, atomically: true, encoding: .utf8)
    }
    #expect(
      page == """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Ripple &amp; friends</title>
        <style>.ripple-node{position:absolute;box-sizing:border-box;margin:0;padding:0;font:inherit;list-style:none}.ripple-root{position:relative;font-family:monospace;line-height:1}.ripple-layer{display:block;margin:0;font:inherit;white-space:pre}</style>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body{margin:0;background:#fff} .ripple-root{font-size:16px}</style>
        </head>
        <body><div class="ripple-root" style="width:24ch;height:5em"><div class="ripple-node" data-name="page" style="left:0ch;top:0em;width:24ch;height:5em">
          <pre class="ripple-layer">



        </pre>
          <header class="ripple-node" data-name="header" style="left:0ch;top:0em;width:24ch;height:1em">
            <h1 class="ripple-node" data-name="title" style="left:0ch;top:0em;width:24ch;height:1em">
              <span class="ripple-layer"><span style="color:#ffffff;background-color:#0000ff;font-weight:bold">Ripple                  </span></span>
            </h1>
          </header>
          <main class="ripple-node" data-name="main" style="left:0ch;top:1em;width:24ch;height:3em">
            <ul class="ripple-node" data-name="list" style="left:0ch;top:0em;width:24ch;height:2em">
              <li class="ripple-node" data-name="one" style="left:0ch;top:0em;width:24ch;height:1em">
                <pre class="ripple-layer">* one</pre>
              </li>
              <li class="ripple-node" data-name="two" style="left:0ch;top:1em;width:24ch;height:1em">
                <pre class="ripple-layer">* two</pre>
              </li>
            </ul>
            <p class="ripple-node" data-name="note" style="left:0ch;top:2em;width:24ch;height:1em">
              <span class="ripple-layer">a &lt; b &amp; c</span>
            </p>
          </main>
          <footer class="ripple-node" data-name="footer" style="left:0ch;top:4em;width:24ch;height:1em">
            <pre class="ripple-layer"><span style="color:#000000;background-color:#ff0000">(c) 2026                </span></pre>
          </footer>
        </div>
        </div></body></html>

        """)
  }

  @Test func theOldDocumentStillRendersWithoutLangOrHeadContent() {
    let sign = Sign(name: "sign", frame: Rect(x: 0, y: 0, width: 2, height: 1))
    sign.text = "hi"
    sign.renderPass()
    let page = HTMLRenderer().document(sign, title: "t")
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>t</title>"))
    #expect(page.contains("<div class=\"ripple-root\" style=\"width:2ch;height:1em\">"))
  }

  @Test(arguments: [
    ("en", "<html lang=\"en\">"),
    ("\"><script>", "<html lang=\"&quot;&gt;&lt;script&gt;\">"),
  ])
  func theLanguageIsAnEscapedAttribute(lang: String, expected: String) {
    let sign = Sign(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    sign.renderPass()
    #expect(HTMLRenderer().document(sign, title: "t", lang: lang).contains(expected))
  }

  @Test func headContentIsEscaped() {
    let sign = Sign(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    sign.renderPass()
    let page = HTMLRenderer().document(
      sign, title: "t",
      head: [
        .style("p > a{color:red} </style><script>alert(1)</script>"),
        .meta(name: "description\" onload=\"x", content: "<b>&"),
        .stylesheet(href: "/a.css\"><script>"),
      ])
    #expect(!page.contains("<script"))
    #expect(
      page.contains(#"<style>p > a{color:red} \3C /style>\3C script>alert(1)\3C /script></style>"#))
    #expect(
      page.contains(#"<meta name="description&quot; onload=&quot;x" content="&lt;b&gt;&amp;">"#))
    #expect(page.contains(#"<link rel="stylesheet" href="/a.css&quot;&gt;&lt;script&gt;">"#))
  }

  @Test func theVocabularyIsFixed() {
    #expect(
      HTMLElement.allCases.map(\.name) == [
        "div", "header", "nav", "main", "article", "section", "footer", "h1", "h2", "h3", "p",
        "ul", "li",
      ])
  }

  @Test func everythingInsideAHeadingOrParagraphIsASpan() {
    let heading = PageStack(name: "heading", frame: Rect(x: 0, y: 0, width: 4, height: 2))
    heading.htmlElement = .h2
    heading.addSubnode(PageLine("ab", name: "inner", element: .section))
    heading.addSubnode(PageLine("cd", name: "para", element: .p))
    heading.renderPass()
    let html = HTMLRenderer().render(heading)
    #expect(
      html == """
        <h2 class="ripple-node" data-name="heading" style="left:0ch;top:0em;width:4ch;height:2em">
          <span class="ripple-node" data-name="inner" style="left:0ch;top:0em;width:4ch;height:1em">
            <span class="ripple-layer">ab</span>
          </span>
          <span class="ripple-node" data-name="para" style="left:0ch;top:1em;width:4ch;height:1em">
            <span class="ripple-layer">cd</span>
          </span>
        </h2>

        """)
  }

  @Test func anItemOutsideAListIsADiv() {
    let item = PageLine("x", name: "item", element: .li)
    item.frame = Rect(x: 0, y: 0, width: 1, height: 1)
    item.renderPass()
    #expect(HTMLRenderer().render(item).hasPrefix("<div class=\"ripple-node\" data-name=\"item\""))
  }

  @Test func aHeightThatFitsItsContentSettlesInOnePass() {
    let page = makeSnapshotPage()
    #expect(page.frame.size.height == 5)
    #expect(page.subnodes.map(\.frame.origin.y) == [0, 1, 4])
    #expect(page.subnodes.map(\.frame.size.height) == [1, 3, 1])
    #expect(!page.needsLayout)
    // Content that grows makes the page grow in the next pass.
    let main = page.subnodes[1]
    main.addSubnode(PageLine("more", name: "more", element: .p))
    page.renderPass()
    #expect(page.frame.size.height == 6)
    #expect(page.subnodes.map(\.frame.origin.y) == [0, 1, 5])
    #expect(page.snapshot().rendered.split(separator: "\n").count == 6)
  }

  @Test func aReportCountsEachNodeLaidOutOnceWhateverTheRounds() {
    let page = PageStack(name: "page", frame: Rect(x: 0, y: 0, width: 10, height: 0))
    page.fitsHeightToContent = true
    let section = PageStack(name: "section")
    section.fitsHeightToContent = true
    section.addSubnode(PageLine("a", name: "a", element: .p))
    page.addSubnode(section)
    let report = page.renderPass()
    #expect(report.nodes == 3)
    #expect(report.laidOut == 3)
    #expect(page.layoutCount > 1)  // laid out again once the section's height settled
  }

  @Test func underARenderLoopAFittedPageSettlesInOnePass() {
    let scheduler = TestScheduler()
    let page = PageStack(name: "page", frame: Rect(x: 0, y: 0, width: 10, height: 0))
    page.fitsHeightToContent = true
    let section = PageStack(name: "section")
    section.fitsHeightToContent = true
    section.addSubnode(PageLine("a", name: "a", element: .p))
    page.addSubnode(section)
    page.addSubnode(PageLine("end", name: "end", element: .footer))
    let loop = RenderLoop(root: page, scheduler: scheduler)
    scheduler.advance()
    #expect(loop.passCount == 1)
    #expect(page.frame.size.height == 2)
    section.addSubnode(PageLine("b", name: "b", element: .p))
    scheduler.advance()
    scheduler.advance()
    #expect(loop.passCount == 2)
    #expect(page.frame.size.height == 3)
    #expect(page.subnodes.map(\.frame.origin.y) == [0, 2])
    loop.stop()
  }

  @Test func aHeightThatFitsItsContentIsOffByDefault() {
    let page = PageStack(name: "page", frame: Rect(x: 0, y: 0, width: 4, height: 9))
    page.addSubnode(PageLine("x", name: "x", element: .div))
    page.renderPass()
    #expect(!page.fitsHeightToContent)
    #expect(page.frame.size.height == 9)
  }
}
