import Invalidation
import InvalidationTerminal
import ModelTesting
import Testing

/// A canvas with `text` at `point`.
func canvas(
  _ size: Size = Size(width: 40, height: 10), _ texts: [(String, Point)] = [],
  style: CellStyle = .plain
) -> TextCanvas {
  var canvas = TextCanvas(size: size)
  for (text, point) in texts { canvas.draw(text, at: point, style: style) }
  return canvas
}

@Suite struct FrameBufferTests {
  @Test func theFirstFrameClearsAndPaintsOnlyNonBlankCells() {
    var buffer = FrameBuffer()
    let bytes = buffer.update(to: canvas(Size(width: 10, height: 3), [("ab", Point(x: 2, y: 1))]))
    #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[0m\u{1B}[2J\u{1B}[2;3Hab")
    #expect(buffer.shown?.lines == ["", "  ab", ""])
  }

  @Test func anIdleFrameWritesNothing() {
    var buffer = FrameBuffer()
    let frame = canvas(Size(width: 80, height: 24), [("hello", .zero)])
    _ = buffer.update(to: frame)
    #expect(buffer.update(to: frame).isEmpty)
  }

  @Test(arguments: [CellStyle.plain, CellStyle(foreground: .standard(.cyan), attributes: .bold)])
  func aTenCellLabelChangeWritesFewerThan64Bytes(style: CellStyle) {
    var buffer = FrameBuffer()
    _ = buffer.update(
      to: canvas(Size(width: 80, height: 24), [("label 0001", Point(x: 30, y: 12))], style: style))
    let bytes = buffer.update(
      to: canvas(Size(width: 80, height: 24), [("LABEL 9999", Point(x: 30, y: 12))], style: style))
    #expect(bytes.count < 64)
    #expect(bytes.count >= 10 + 6)
  }

  @Test func changedCellsAreWrittenAfterOneMoveAndShortGapsAreBridged() {
    var buffer = FrameBuffer()
    _ = buffer.update(to: canvas(Size(width: 20, height: 2), [("abcdefgh", .zero)]))
    let bytes = buffer.update(to: canvas(Size(width: 20, height: 2), [("aXcdYfgh", .zero)]))
    #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;2HXcdY")
  }

  @Test func farApartChangesMoveTheCursor() {
    var buffer = FrameBuffer()
    _ = buffer.update(to: canvas(Size(width: 20, height: 2), [("a", .zero)]))
    let bytes = buffer.update(
      to: canvas(Size(width: 20, height: 2), [("b", .zero), ("z", Point(x: 15, y: 1))]))
    #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;1Hb\u{1B}[2;16Hz")
  }

  @Test func stylesAreSelectedOnceAndResetAtTheEnd() {
    var buffer = FrameBuffer()
    let style = CellStyle(
      foreground: .palette(200), background: .rgb(red: 1, green: 2, blue: 3),
      attributes: [.underline, .reverse])
    let bytes = buffer.update(to: canvas(Size(width: 5, height: 1), [("ok", .zero)], style: style))
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;4;7;38;5;200;48;2;1;2;3mok\u{1B}[0m")
  }

  @Test func aResizeOrInvalidateRepaintsInFull() {
    var buffer = FrameBuffer()
    let frame = canvas(Size(width: 10, height: 2), [("x", .zero)])
    _ = buffer.update(to: frame)
    buffer.invalidate()
    #expect(
      String(decoding: buffer.update(to: frame), as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"))
    let bigger = canvas(Size(width: 12, height: 2), [("x", .zero)])
    #expect(
      String(decoding: buffer.update(to: bigger), as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"))
  }

  @Test func controlCharactersNeverReachTheTerminal() {
    var buffer = FrameBuffer()
    let bytes = buffer.update(to: canvas(Size(width: 10, height: 1), [("a\u{1B}b\u{7}", .zero)]))
    #expect(!bytes.contains(0x07))
    #expect(bytes.filter { $0 == 0x1B }.count == 3)  // reset, clear, one cursor move
    #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("a?b?"))
  }
}

@Suite struct TerminalKeyParserTests {
  @Test(arguments: [
    ("q", [TerminalKey.character("q")]),
    ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [.up, .down, .right, .left]),
    ("\u{1B}OA", [.up]),
    ("\r\t\u{7F}", [.enter, .tab, .backspace]),
    ("\u{3}", [.control("c")]),
    ("\u{1B}", [.escape]),
    ("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[H\u{1B}[F", [.pageUp, .pageDown, .delete, .home, .end]),
    ("é✓", [.character("é"), .character("✓")]),
    ("\u{1B}[99x", [.unknown(Array("\u{1B}[99x".utf8))]),
  ])
  func parsesKeys(input: String, keys: [TerminalKey]) {
    var parser = TerminalKeyParser()
    #expect(parser.parse(Array(input.utf8)) == keys)
  }

  @Test func anEndlessSequenceIsCutOffAndTheBytesAfterItAreKeys() {
    var parser = TerminalKeyParser()
    var keys: [TerminalKey] = []
    keys += parser.parse(Array("\u{1B}[".utf8))
    for _ in 0..<10_000 { keys += parser.parse(Array("1;".utf8)) }
    #expect(keys.count == 1)
    guard case .unknown(let bytes) = keys.first else {
      Issue.record("expected an unknown key, got \(keys)")
      return
    }
    #expect(bytes.count <= 64)
    // What is left of the runaway sequence is dropped up to its end, then keys resume.
    #expect(parser.parse(Array("1~q".utf8)) == [.character("q")])
  }

  @Test func aSequenceSplitAcrossReadsWaitsForTheRest() {
    var parser = TerminalKeyParser()
    #expect(parser.parse([0x1B, 0x5B]) == [])
    #expect(parser.parse([0x41, 0x71]) == [.up, .character("q")])
    let check = Array("✓".utf8)
    #expect(parser.parse(Array(check.prefix(1))) == [])
    #expect(parser.parse(Array(check.dropFirst())) == [.character("✓")])
  }
}
