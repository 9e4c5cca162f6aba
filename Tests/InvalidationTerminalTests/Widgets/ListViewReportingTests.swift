import Dispatch
import Invalidation
import ReactiveCore
import Testing

@testable import InvalidationTerminal

@Suite struct ListViewReportingTests {
  static func list(_ count: Int, height: Int = 3) -> ListView {
    ListView(
      items: (0..<count).map { ListView.Item("line \($0)") },
      frame: Rect(x: 0, y: 0, width: 10, height: height))
  }

  /// Every change of the selection reaches the app: keys, the mouse, the app, and rows
  /// that went away.
  @Test func onSelectionChangeHearsEveryChange() {
    let list = Self.list(5)
    var heard: [Int?] = []
    list.onSelectionChange = { heard.append($0) }
    _ = list.handle(.down)
    _ = list.handle(.down)
    _ = list.handle(.up)
    _ = list.handle(.up)
    _ = list.handle(.up)  // at the top: no change
    list.selection = 4
    list.items = Array(list.items.prefix(2))  // the selected row is gone
    list.items = []
    #expect(heard == [1, 2, 1, 0, 4, 1, nil])
  }

  /// Enter activates the selected row while `onActivate` is set; otherwise it goes on.
  @Test func enterActivatesOnlyWhileOnActivateIsSet() {
    let list = Self.list(3)
    #expect(!list.handle(.enter))
    var activated: [Int] = []
    list.onActivate = { activated.append($0) }
    _ = list.handle(.down)
    #expect(list.handle(.enter))
    #expect(activated == [1])
  }

  /// Following the tail: a selection on the last row moves to each new last row; moving
  /// up pauses it (the selected line stays selected as lines stream in), and moving back
  /// to the end resumes it.
  @Test func followingTheTailPausesWhenTheUserMovesAndResumesAtTheEnd() {
    let list = Self.list(0)
    list.followsTail = true
    var lines: [ListView.Item] = []
    func append(_ count: Int) {
      for _ in 0..<count { lines.append(ListView.Item("line \(lines.count)")) }
      list.items = lines
    }
    append(5)
    #expect(list.selection == 4)
    append(1)
    #expect(list.selection == 5)
    for _ in 0..<3 { _ = list.handle(.up) }
    #expect(list.selectedItem?.text == "line 2")
    append(10)
    #expect(list.selectedItem?.text == "line 2")  // paused: what the user chose stays
    _ = list.handle(.end)
    append(1)
    #expect(list.selectedItem?.text == "line 16")
  }

  /// Items with ids keep the selection on the same item when lines are dropped from the
  /// front, as a bounded log does.
  @Test func itemsWithIDsKeepTheSelectionByIdentity() {
    let list = ListView(items: (0..<10).map { ListView.Item("line \($0)", id: $0) })
    list.selection = 5
    list.items = (3..<13).map { ListView.Item("line \($0)", id: $0) }
    #expect(list.selectedItem?.text == "line 5")
    #expect(list.selection == 2)
  }

  /// The app may scroll without moving the selection; the next change of the selection
  /// scrolls back to it.
  @Test func aSetScrollOffsetStaysUntilTheSelectionMoves() {
    let list = Self.list(20)
    #expect(rendered(list).first == "line 0")
    list.scrollOffset = 10
    #expect(rendered(list).first == "line 10")
    #expect(list.selection == 0)
    _ = list.handle(.down)  // selects line 1: scrolled back, as little as shows it
    #expect(rendered(list).first == "line 1")
    list.scrollOffset = 100  // past the end: the rows still fill the list
    #expect(rendered(list).first == "line 17")
  }
}

@MainActor @Suite struct TerminalAppTimerTests {
  /// `every` ticks on the main queue until cancelled; dropping the cancellable does not
  /// stop it.
  @Test func everyTicksOnTheMainActorUntilCancelled() async throws {
    let app = TerminalApp(
      root: HeadlessNode(frame: Rect(x: 0, y: 0, width: 10, height: 3)),
      writer: TerminalWriter { _ in })
    var ticks = 0
    let timer = app.every(.milliseconds(5)) { ticks += 1 }
    while ticks < 3 { try await Task.sleep(for: .milliseconds(5)) }
    timer.cancel()
    let stopped = ticks
    try await Task.sleep(for: .milliseconds(50))
    #expect(ticks == stopped)
  }
}

@Suite struct ListViewSpanTests {
  /// A row of spans draws each run in its style, and reversed while selected.
  @Test func rowsOfSpansKeepTheirStyles() {
    let warn = CellStyle(foreground: .standard(.yellow))
    let list = ListView(
      items: [ListView.Item(spans: [TextSpan("W", style: warn), " cold"], id: 1), "plain"],
      frame: Rect(x: 0, y: 0, width: 8, height: 2))
    list.selection = 1
    #expect(rendered(list) == ["W cold", "plain"])
    #expect(list.snapshot().style(at: Point(x: 0, y: 0)) == warn)
    list.selection = 0
    _ = rendered(list)
    #expect(list.snapshot().style(at: Point(x: 0, y: 0)) == warn.adding(.reverse))
    #expect(list.items[0].text == "W cold")
  }
}

@Suite struct ListViewHorizontalScrollTests {
  /// A long line can be read to its end: the offset scrolls every row sideways, set by
  /// the app or by Left and Right when the list scrolls horizontally.
  @Test func longLinesScrollSideways() {
    let long = String(repeating: "0123456789", count: 1_000)
    let list = ListView(
      items: [ListView.Item(long), "short"], frame: Rect(x: 0, y: 0, width: 6, height: 2))
    list.showsSelection = false
    #expect(rendered(list) == ["012345", "short"])
    list.horizontalOffset = 9_995
    #expect(rendered(list) == ["56789", ""])
    #expect(!list.handle(.right))  // the app's key until the list scrolls sideways
    list.scrollsHorizontally = true
    list.horizontalOffset = 0
    #expect(list.handle(.right))
    #expect(rendered(list) == ["890123", ""])
    #expect(list.handle(.left))
    #expect(rendered(list) == ["012345", "short"])
  }

  /// A wide character cut by the left edge leaves a space.
  @Test func aWideCharacterCutAtTheLeftLeavesASpace() {
    let spans = ListView.dropping(columns: 1, from: [TextSpan("買い"), TextSpan("x")])
    #expect(spans.map(\.text) == [" い", "x"])
  }
}
