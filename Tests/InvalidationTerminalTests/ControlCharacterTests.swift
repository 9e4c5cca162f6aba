import Invalidation
import InvalidationTerminal
import ModelTesting
import Testing

@Suite struct ControlCharacterTests {
  /// What a frame of `a`, `character`, `b` on a blank 3×1 screen writes after the clear.
  static func written(_ character: Character) -> [UInt8] {
    var canvas = TextCanvas(size: Size(width: 3, height: 1))
    canvas.set("a", at: Point(x: 0, y: 0))
    canvas.set(character, at: Point(x: 1, y: 0))
    canvas.set("b", at: Point(x: 2, y: 0))
    var buffer = FrameBuffer()
    let prefix = Array("\u{1B}[0m\u{1B}[2J\u{1B}[1;1H".utf8)
    let bytes = buffer.update(to: canvas)
    #expect(bytes.starts(with: prefix))
    return Array(bytes.dropFirst(prefix.count))
  }

  @Test(arguments: controlCharacters)
  func aControlCharacterIsWrittenAsOneQuestionMark(name: String, character: Character) {
    #expect(Self.written(character) == Array("a?b".utf8), "\(name)")
  }

  @Test(arguments: printableNeighbours)
  func printableCharactersAreWrittenAsThemselves(name: String, character: Character) {
    #expect(Self.written(character) == Array("a\(character)b".utf8), "\(name)")
  }

  @Test(arguments: controlCharacters)
  func aControlCharacterInADiffIsReplacedToo(name: String, character: Character) {
    var buffer = FrameBuffer()
    var canvas = TextCanvas(size: Size(width: 10, height: 2))
    canvas.draw("abcdefgh", at: .zero)
    _ = buffer.update(to: canvas)
    // Changed alone, and bridged between two changes.
    canvas.set(character, at: Point(x: 3, y: 0))
    canvas.set("X", at: Point(x: 1, y: 0))
    canvas.set("Y", at: Point(x: 5, y: 0))
    let bytes = buffer.update(to: canvas)
    #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;2HXc?eY", "\(name)")
  }

  @Test func aLabelCannotWriteTheClipboardOrClearTheScreen() {
    let attacks = [
      "\u{9D}52;c;aGVsbG8=\u{9C}",  // OSC 52 with 8-bit controls: set the clipboard
      "\u{1B}]52;c;aGVsbG8=\u{7}",  // the same, 7-bit
      "\u{9B}2J\u{9B}H",  // 8-bit CSI: clear, home
      "\u{1B}[2J\u{1B}c",  // 7-bit: clear, full reset
      "\u{90}q\u{9C}",  // DCS
      "\u{1B}P+q\u{1B}\\",  // DCS, 7-bit
      "title\u{1B}]0;pwned\u{7}",
    ]
    for attack in attacks {
      var canvas = TextCanvas(size: Size(width: 40, height: 1))
      canvas.draw(attack, at: .zero, style: CellStyle(foreground: .standard(.red)))
      var buffer = FrameBuffer()
      let bytes = buffer.update(to: canvas)
      var screen = ScreenEmulator(size: canvas.size)
      screen.feed(bytes)
      #expect(screen.errors.isEmpty, "\(attack.debugDescription): \(screen.errors)")
      #expect(!Self.containsC1(bytes), "\(attack.debugDescription)")
      #expect(!bytes.contains(0x07), "\(attack.debugDescription)")
      // Only the buffer's own sequences: clear, one move, one style, one reset.
      #expect(bytes.filter { $0 == 0x1B }.count == 5, "\(attack.debugDescription)")
    }
  }

  @Test func theBackendsOwnSequencesAreSevenBit() {
    var canvas = TextCanvas(size: Size(width: 30, height: 4))
    let styles: [CellStyle] = [
      .plain, CellStyle(attributes: [.bold, .dim, .italic, .underline, .reverse]),
      CellStyle(foreground: .bright(.white), background: .standard(.black)),
      CellStyle(foreground: .palette(255), background: .rgb(red: 255, green: 128, blue: 0)),
    ]
    for (row, style) in styles.enumerated() {
      canvas.draw("row \(row) ascii text", at: Point(x: row, y: row), style: style)
    }
    var buffer = FrameBuffer()
    #expect(buffer.update(to: canvas).allSatisfy { $0 < 0x80 })
    canvas.draw("CHANGED", at: Point(x: 20, y: 3), style: styles[3])
    canvas.draw("x", at: Point(x: 0, y: 0), style: styles[1])
    #expect(buffer.update(to: canvas).allSatisfy { $0 < 0x80 })
  }

  /// Whether `bytes` hold a C1 control, as one byte or as UTF-8 (C2 80…C2 9F).
  static func containsC1(_ bytes: [UInt8]) -> Bool {
    zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
      || String(decoding: bytes, as: UTF8.self).unicodeScalars.contains {
        (0x80...0x9F).contains($0.value)
      }
  }
}
