import Invalidation
import InvalidationTerminal
import Testing

@Suite struct ListViewTests {
  static func list(_ count: Int, height: Int = 3) -> ListView {
    ListView(
      items: (0..<count).map { ListView.Item("item \($0)") },
      frame: Rect(x: 0, y: 0, width: 8, height: height))
  }

  @Test func theFirstItemIsSelectedAndAnEmptyListHasNoSelection() {
    #expect(Self.list(3).selection == 0)
    #expect(Self.list(0).selection == nil)
    let list = Self.list(0)
    list.selection = 4
    #expect(list.selection == nil)
    list.items = ["a", "b"]
    #expect(list.selection == 0)
  }

  @Test func arrowsPagesHomeAndEndMoveTheSelectionAndStopAtTheEnds() {
    let list = Self.list(10, height: 4)
    #expect(list.handle(.up))
    #expect(list.selection == 0)
    #expect(list.handle(.down))
    #expect(list.selection == 1)
    #expect(list.handle(.pageDown))
    #expect(list.selection == 4)
    #expect(list.handle(.end))
    #expect(list.selection == 9)
    #expect(list.handle(.down))
    #expect(list.selection == 9)
    #expect(list.handle(.pageUp))
    #expect(list.selection == 6)
    #expect(list.handle(.home))
    #expect(list.selection == 0)
    #expect(!list.handle(.character("q")))
    #expect(!list.handle(.enter))
  }

  @Test func theListScrollsOnlyAsFarAsTheSelectionNeeds() {
    let list = Self.list(10, height: 3)
    #expect(rendered(list) == ["item 0", "item 1", "item 2"])
    list.selection = 4
    #expect(rendered(list) == ["item 2", "item 3", "item 4"])
    #expect(list.scrollOffset == 2)
    list.selection = 3  // still in view: no scrolling
    #expect(rendered(list) == ["item 2", "item 3", "item 4"])
    list.selection = 0
    #expect(rendered(list).first == "item 0")
  }

  @Test func theSelectedRowIsReversedAcrossItsWidth() {
    let list = Self.list(3)
    list.selection = 1
    let canvas = { () -> TextCanvas in
      list.renderPass()
      return list.snapshot()
    }()
    #expect(canvas.style(at: Point(x: 7, y: 1))?.attributes.contains(.reverse) == true)
    #expect(canvas.style(at: Point(x: 0, y: 0))?.attributes.contains(.reverse) == false)
    list.showsSelection = false
    list.renderPass()
    #expect(list.snapshot().style(at: Point(x: 7, y: 1))?.attributes.contains(.reverse) == false)
  }

  @Test func removingTheSelectedLastItemSelectsTheNewLastAndScrollsBack() {
    let list = Self.list(10, height: 3)
    list.selection = 9
    _ = rendered(list)
    list.items.removeLast(5)
    #expect(list.selection == 4)
    #expect(rendered(list) == ["item 2", "item 3", "item 4"])
    list.items = []
    #expect(list.selection == nil)
    list.placeholder = "nothing"
    #expect(rendered(list).first == "nothing")
  }

  @Test func wideItemsAreCutAtTheEdgeWithoutHalfACharacter() {
    let list = ListView(items: ["買い物 🛒 and more"], frame: Rect(x: 0, y: 0, width: 5, height: 1))
    // Lines drop trailing spaces: 買い is followed by the space that stands for 物.
    #expect(rendered(list) == ["買い"])
    #expect(list.snapshot()[Point(x: 4, y: 0)] == " ")
  }

  @Test func aClickSelectsTheRowUnderItAndTheWheelMovesTheSelection() {
    let root = HeadlessNode(frame: Rect(x: 0, y: 0, width: 20, height: 10))
    let list = Self.list(10, height: 4)
    list.frame.origin = Point(x: 2, y: 3)
    root.addSubnode(list)
    root.renderPass()
    let click = TerminalMouseEvent(kind: .press, button: .left, point: Point(x: 4, y: 5))
    #expect(list.handle(.mouse(click)))
    #expect(list.selection == 2)
    let outside = TerminalMouseEvent(kind: .press, button: .left, point: Point(x: 1, y: 5))
    #expect(!list.handle(.mouse(outside)))
    #expect(list.selection == 2)
    #expect(list.handle(.mouse(TerminalMouseEvent(kind: .scrollDown, button: .none, point: .zero))))
    #expect(list.selection == 3)
  }

  @Test(arguments: [0, 1, 2])
  func anySizeDrawsWithoutTrapping(height: Int) {
    let list = ListView(
      items: ["a", "買", "🛒🛒"], frame: Rect(x: 0, y: 0, width: height, height: height))
    for selection in 0..<3 {
      list.selection = selection
      #expect(rendered(list).count == height)
      _ = list.handle(.pageDown)
      _ = list.handle(.pageUp)
    }
  }
}
