import Invalidation
import InvalidationTerminal
import Testing

@Suite struct WideCharacterFrameBufferTests {
  /// Runs each frame through one buffer and a terminal that measures characters as the
  /// canvas does; checks that the screen shows each frame exactly.
  static func expectScreenFollows(
    _ frames: [TextCanvas], sourceLocation: SourceLocation = #_sourceLocation
  ) -> [[UInt8]] {
    var buffer = FrameBuffer()
    var screen = ScreenEmulator(size: frames[0].size, columns: \.terminalColumns)
    var written: [[UInt8]] = []
    for (number, frame) in frames.enumerated() {
      let bytes = buffer.update(to: frame)
      if screen.size != frame.size { screen.resize(to: frame.size) }
      screen.feed(bytes)
      written.append(bytes)
      #expect(screen.errors == [], "frame \(number)", sourceLocation: sourceLocation)
      let difference = CanvasRandomTests.difference(screen, frame)
      #expect(difference == nil, "frame \(number)", sourceLocation: sourceLocation)
    }
    return written
  }

  static func frame(_ rows: [String], width: Int = 12) -> TextCanvas {
    var canvas = TextCanvas(size: Size(width: width, height: rows.count))
    for (y, row) in rows.enumerated() { canvas.draw(row, at: Point(x: 0, y: y)) }
    return canvas
  }

  @Test func aWideCharacterIsWrittenOnceAndNothingForItsRightHalf() {
    let written = Self.expectScreenFollows([
      Self.frame(["買い物 🛒"]), Self.frame(["abい物 🛒"]), Self.frame(["買い物 🛒"]),
    ])
    #expect(String(decoding: written[0], as: UTF8.self) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H買い物 🛒")
    #expect(String(decoding: written[1], as: UTF8.self) == "\u{1B}[1;1Hab")
    #expect(String(decoding: written[2], as: UTF8.self) == "\u{1B}[1;1H買")
  }

  @Test(arguments: [
    // Frames in turn: shifted, overwritten by halves, narrowed and widened.
    [["買い物 🛒"], [" 買い物 🛒"], ["x買い物 🛒"], ["xyい物 🛒"], ["x物い🛒買"]],
    [["ab"], ["買"], ["a買"], ["ab買"], ["🇯🇵🇯🇵🇯🇵"], [" 🇯🇵🇯🇵"], ["👨‍👩‍👧👨‍👩‍👧"]],
    [
      ["┌──────────┐", "│買い物 🛒  │", "└──────────┘"], ["┌──────────┐", "│a買い物 🛒 │", "└──────────┘"],
    ],
    [["国国国国国国"], ["-国国国国国"], ["--国国国国"], ["国国国国国国"], [""], ["国国国国国国"]],
  ])
  func theScreenShowsEveryFrameExactly(frames: [[String]]) {
    _ = Self.expectScreenFollows(frames.map { Self.frame($0) })
  }

  @Test func anIdleFrameWithWideCharactersWritesNothing() {
    var buffer = FrameBuffer()
    let frame = Self.frame(["買い物 🛒", "👨‍👩‍👧 family 🇯🇵"], width: 40)
    _ = buffer.update(to: frame)
    #expect(buffer.update(to: frame).isEmpty)
  }

  @Test func aTenCellLabelInARowOfWideTextWritesFewerThan64Bytes() {
    var before = TextCanvas(size: Size(width: 80, height: 24))
    before.draw("買い物 🛒 👨‍👩‍👧 🇯🇵", at: Point(x: 0, y: 12))
    before.draw("label 0001", at: Point(x: 30, y: 12))
    before.draw("ラベル", at: Point(x: 42, y: 12))
    var after = before
    after.draw("LABEL 9999", at: Point(x: 30, y: 12))
    var buffer = FrameBuffer()
    _ = buffer.update(to: before)
    let bytes = buffer.update(to: after)
    #expect(bytes.count < 64)
    #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[13;31HLABEL 9999")
    // A wide label changes in place too.
    var wide = after
    wide.draw("ラベル二", at: Point(x: 42, y: 12))
    #expect(buffer.update(to: wide).count < 64)
  }

  @Test func theIssuesToDoListKeepsItsBorders() {
    // Each item's row: a border, the text clipped to the inside, a border.
    func list(_ items: [String]) -> TextCanvas {
      var canvas = TextCanvas(size: Size(width: 20, height: items.count + 2))
      canvas.drawBox(in: Rect(x: 0, y: 0, width: 20, height: items.count + 2))
      for (row, item) in items.enumerated() {
        canvas.draw(item, at: Point(x: 2, y: row + 1), width: 16)
      }
      return canvas
    }
    let frames = [
      list(["milk", "bread"]), list(["milk", "買い物 🛒", "bread"]),
      list(["買い物 🛒 買い物 🛒 買い物", "milk", "bread"]), list(["milk", "bread", "👨‍👩‍👧"]),
    ]
    _ = Self.expectScreenFollows(frames)
    for frame in frames {
      for line in frame.lines { #expect(line.terminalColumns == 20, "\(line)") }
    }
  }
}
