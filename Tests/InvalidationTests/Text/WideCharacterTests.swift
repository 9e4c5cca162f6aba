import Invalidation
import Testing

/// The cells of row `y`: each character, `|` for a continuation (the right half of a
/// wide character).
func cells(_ canvas: TextCanvas, row y: Int = 0) -> [String] {
  (0..<canvas.size.width).map { x in
    let point = Point(x: x, y: y)
    return canvas.isContinuation(at: point) ? "|" : String(canvas[point]!)
  }
}

/// Every wide character is followed by its continuation, every continuation follows a
/// wide character, and the two halves share a style.
func expectWholeWideCharacters(
  _ canvas: TextCanvas, sourceLocation: SourceLocation = #_sourceLocation
) {
  for y in 0..<canvas.size.height {
    for x in 0..<canvas.size.width {
      let point = Point(x: x, y: y)
      if canvas.isContinuation(at: point) {
        let left = Point(x: x - 1, y: y)
        #expect(x > 0, "a continuation at the start of a row", sourceLocation: sourceLocation)
        #expect(
          canvas[left]?.terminalColumns == 2,
          "a continuation after \(String(describing: canvas[left]))",
          sourceLocation: sourceLocation)
        #expect(canvas.style(at: left) == canvas.style(at: point), sourceLocation: sourceLocation)
      } else if canvas[point]!.terminalColumns == 2 {
        #expect(
          canvas.isContinuation(at: Point(x: x + 1, y: y)),
          "\(canvas[point]!) without its right half",
          sourceLocation: sourceLocation)
      }
    }
  }
}

@Suite struct WideCharacterCanvasTests {
  @Test func aWideCharacterTakesTwoCellsAndAppearsOnceInTheText() {
    var canvas = TextCanvas(size: Size(width: 12, height: 1))
    canvas.draw("買い物 🛒!", at: .zero)
    #expect(cells(canvas) == ["買", "|", "い", "|", "物", "|", " ", "🛒", "|", "!", " ", " "])
    #expect(canvas.lines == ["買い物 🛒!"])
    #expect(canvas.rendered == "買い物 🛒!")
    #expect(canvas[Point(x: 1, y: 0)] == nil)
    #expect(canvas.isContinuation(at: Point(x: 1, y: 0)))
    #expect(!canvas.isContinuation(at: Point(x: 0, y: 0)))
    #expect(!canvas.isContinuation(at: Point(x: -1, y: 0)))
    expectWholeWideCharacters(canvas)
  }

  @Test(arguments: [
    // (text, x, width, expected cells of a 6-cell row pre-filled with ".")
    ("ab買", 3, nil as Int?, [".", ".", ".", "a", "b", " "]),  // the right edge
    ("買x", -1, nil, [" ", "x", ".", ".", ".", "."]),  // the left edge
    ("買い物", 0, 5, ["買", "|", "い", "|", " ", "."]),  // the width: a space
    ("買い物", 0, 4, ["買", "|", "い", "|", ".", "."]),
    ("買い物", 1, 1, [".", " ", ".", ".", ".", "."]),
    ("a買", 0, 2, ["a", " ", ".", ".", ".", "."]),
    ("買", 0, 0, [".", ".", ".", ".", ".", "."]),
    ("🇯🇵👍🏽", 1, nil, [".", "🇯🇵", "|", "👍🏽", "|", "."]),
    ("👨‍👩‍👧x", 4, nil, [".", ".", ".", ".", "👨‍👩‍👧", "|"]),
  ])
  func aWideCharacterIsNeverSplitAtAClipEdge(text: String, x: Int, width: Int?, expected: [String])
  {
    var canvas = TextCanvas(size: Size(width: 6, height: 1))
    canvas.fill(Rect(x: 0, y: 0, width: 6, height: 1), with: ".")
    canvas.draw(text, at: Point(x: x, y: 0), width: width)
    #expect(cells(canvas) == expected)
    expectWholeWideCharacters(canvas)
  }

  @Test func overwritingEitherHalfBlanksTheOtherHalf() {
    var canvas = TextCanvas(size: Size(width: 6, height: 1))
    canvas.draw("買い物", at: .zero)
    canvas.set("x", at: Point(x: 1, y: 0))  // the right half of 買
    canvas.set("y", at: Point(x: 2, y: 0))  // the left half of い
    #expect(cells(canvas) == [" ", "x", "y", " ", "物", "|"])
    canvas.draw("国", at: Point(x: 3, y: 0))  // over a blank and the left half of 物
    #expect(cells(canvas) == [" ", "x", "y", "国", "|", " "])
    canvas.draw("日本", at: Point(x: 0, y: 0))
    canvas.draw("語", at: Point(x: 1, y: 0))  // straddles 日 and 本
    #expect(cells(canvas) == [" ", "語", "|", " ", " ", " "])
    #expect(canvas.lines == [" 語"])
    expectWholeWideCharacters(canvas)
  }

  @Test func zeroWidthCharactersJoinTheCellOnTheirLeftOrAreDropped() {
    var canvas = TextCanvas(size: Size(width: 6, height: 1))
    canvas.draw("a\u{200B}b", at: .zero)  // a zero width space takes no cell
    #expect(cells(canvas) == ["a", "b", " ", " ", " ", " "])
    canvas.set("\u{301}", at: Point(x: 1, y: 0))  // a lone combining acute joins the a
    #expect(cells(canvas) == ["a\u{301}", "b", " ", " ", " ", " "])
    canvas.draw("\u{301}x", at: Point(x: 2, y: 0))  // joins the b, then x
    #expect(canvas.lines == ["áb́x"])
    canvas.set("\u{301}", at: Point(x: 0, y: 0))  // nothing to its left: dropped
    canvas.set("\u{200B}", at: Point(x: 0, y: 0))
    canvas.set("\u{200B}", at: Point(x: 3, y: 0))  // x + ZWSP are two characters: dropped
    #expect(canvas.lines == ["áb́x"])
    canvas.draw("物", at: Point(x: 4, y: 0))
    canvas.set("\u{301}", at: Point(x: 6, y: 0))  // joins 物, still two columns
    #expect(cells(canvas) == ["a\u{301}", "b\u{301}", "x", " ", "物\u{301}", "|"])
    expectWholeWideCharacters(canvas)
  }

  @Test func aCellNeverEndsInAJoinerThatWouldJoinTheNextCellOnScreen() {
    var canvas = TextCanvas(size: Size(width: 8, height: 1))
    canvas.draw("👍\u{200D}", at: .zero)
    canvas.draw("❤️", at: Point(x: 2, y: 0))
    #expect(cells(canvas) == ["👍", "|", "❤️", "|", " ", " ", " ", " "])
    // Found by the randomized test: a family, a zero width space, then an acute and a
    // joiner (which would join the family, and through it the heart: dropped), a heart.
    canvas.draw("👨‍👩‍👧\u{200B}\u{301}\u{200D}❤️", at: Point(x: 4, y: 0))
    #expect(canvas[Point(x: 4, y: 0)] == "👨‍👩‍👧")
    #expect(canvas[Point(x: 6, y: 0)] == "❤️")
    expectWholeWideCharacters(canvas)
  }

  @Test func fillsRepeatWideCharactersEveryTwoColumns() {
    var canvas = TextCanvas(size: Size(width: 6, height: 2))
    canvas.fill(Rect(x: 0, y: 0, width: 5, height: 1), with: "国")
    canvas.fill(Rect(x: -1, y: 1, width: 9, height: 1), with: "国")
    #expect(cells(canvas, row: 0) == ["国", "|", "国", "|", " ", " "])
    #expect(cells(canvas, row: 1) == [" ", "国", "|", "国", "|", " "])
    canvas.fill(Rect(x: 0, y: 0, width: 6, height: 2), with: "\u{301}")  // fills nothing
    #expect(cells(canvas, row: 0) == ["国", "|", "国", "|", " ", " "])
    canvas.fill(Rect(x: 1, y: 0, width: 2, height: 2), with: "-")
    #expect(canvas.lines == [" --", " --国"])
    expectWholeWideCharacters(canvas)
  }

  @Test func restylingHalfAWideCharacterRestylesItWhole() {
    var canvas = TextCanvas(size: Size(width: 4, height: 1))
    canvas.draw("買い", at: .zero)
    let bold = CellStyle(attributes: .bold)
    canvas.apply(bold, in: Rect(x: 1, y: 0, width: 2, height: 1))
    #expect((0..<4).map { canvas.style(at: Point(x: $0, y: 0)) } == [bold, bold, bold, bold])
    expectWholeWideCharacters(canvas)
  }

  @Test func compositingClipsWideCharactersToSpaces() {
    var stamp = TextCanvas(size: Size(width: 3, height: 1))
    stamp.draw("国x", at: .zero)
    var canvas = TextCanvas(size: Size(width: 5, height: 1))
    canvas.fill(Rect(x: 0, y: 0, width: 5, height: 1), with: ".")
    canvas.composite(stamp, at: Point(x: -1, y: 0))
    #expect(cells(canvas) == [" ", "x", ".", ".", "."])
    canvas.composite(stamp, at: Point(x: 4, y: 0))
    #expect(cells(canvas) == [" ", "x", ".", ".", " "])
    canvas.composite(stamp, at: Point(x: 1, y: 0))
    #expect(cells(canvas) == [" ", "国", "|", "x", " "])
    canvas.composite(stamp, at: Point(x: 0, y: 0))  // over the left half of 国
    #expect(cells(canvas) == ["国", "|", "x", "x", " "])
    expectWholeWideCharacters(canvas)
  }

  @Test func aBoxOverWideTextKeepsEveryBorderInItsColumn() {
    var canvas = TextCanvas(size: Size(width: 8, height: 3))
    canvas.draw("買買買買", at: Point(x: 0, y: 1))
    canvas.drawBox(in: Rect(x: 1, y: 0, width: 5, height: 3))
    #expect(canvas.lines == [" ┌───┐", " │買 │買", " └───┘"])
    expectWholeWideCharacters(canvas)
  }

  /// Rows of user text in a box: whatever the text, the right border is in its column.
  static let userRows = [
    "買い物 🛒", "👨‍👩‍👧 family", "🇯🇵 flag", "e\u{301}clair", "ｶﾀｶﾅ", "Ｆｕｌｌ", "한국어 텍스트",
    "❤️ love", "☺︎ text style", "1️⃣ keycap", "a\u{200B}b\u{200D}c", "tab\there", "\u{1B}[2J",
    "\u{1100}\u{1161}\u{11A8} jamo", "👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽",
  ]

  @Test(arguments: [9, 10, 11, 12, 13])
  func bordersStayInTheirColumnWithAnyText(width: Int) {
    var canvas = TextCanvas(size: Size(width: width + 2, height: Self.userRows.count + 2))
    for (row, text) in Self.userRows.enumerated() {
      canvas.draw(text, at: Point(x: 1, y: row + 1), width: width - 2)
    }
    canvas.drawBox(in: Rect(x: 0, y: 0, width: width, height: Self.userRows.count + 2))
    for line in canvas.lines {
      #expect(line.terminalColumns == width, "\(line)")
      #expect(line.last == "┐" || line.last == "│" || line.last == "┘", "\(line)")
    }
    expectWholeWideCharacters(canvas)
  }
}
