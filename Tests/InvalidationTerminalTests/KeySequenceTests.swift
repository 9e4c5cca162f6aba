import Invalidation
import InvalidationTerminal
import Testing

@Suite struct KeySequenceTests {
  @Test(arguments: keySequenceFixtures)
  func parsesWhatTerminalsSend(terminal: String, bytes: String, key: TerminalKey) {
    var parser = TerminalKeyParser()
    #expect(parser.parse(Array(bytes.utf8)) == [key], "\(terminal): \(bytes.debugDescription)")
  }

  @Test(arguments: keySequenceFixtures)
  func parsesThemSplitAcrossReadsAndBetweenOtherKeys(
    terminal: String, bytes: String, key: TerminalKey
  ) {
    // A read that ends right after ESC is the Escape key, as it must be: splits come
    // after the escape's next byte.
    let bytes = Array(bytes.utf8)
    for split in min(2, bytes.count)...bytes.count {
      var parser = TerminalKeyParser()
      let keys =
        parser.parse(Array("a".utf8) + bytes[..<split])
        + parser.parse(Array(bytes[split...]) + [0x7A])
      #expect(keys == [.character("a"), key, .character("z")], "\(terminal): split at \(split)")
    }
  }

  @Test func aPasteSplitAcrossReadsIsOneEvent() {
    var parser = TerminalKeyParser()
    let bytes = Array("x\u{1B}[200~line one\nline two ✓\u{1B}[201~y".utf8)
    var keys: [TerminalKey] = []
    var offset = 0
    for size in [1, 5, 2, 7, 3, 1, 4, 9, 2, 100] where offset < bytes.count {
      let end = min(bytes.count, offset + size)
      keys += parser.parse(Array(bytes[offset..<end]))
      offset = end
    }
    #expect(keys == [.character("x"), .paste("line one\nline two ✓"), .character("y")])
  }

  @Test func aHugePasteArrivesInBoundedPieces() {
    var parser = TerminalKeyParser()
    var keys = parser.parse(Array("\u{1B}[200~".utf8))
    let chunk = Array(String(repeating: "é", count: 50_000).utf8)  // 100 kB
    for _ in 0..<30 { keys += parser.parse(chunk) }
    keys += parser.parse(Array("\u{1B}[201~q".utf8))
    let pastes = keys.compactMap { key -> String? in
      if case .paste(let text) = key { return text }
      return nil
    }
    #expect(pastes.count > 1)
    #expect(pastes.allSatisfy { $0.utf8.count <= 1 << 20 })
    #expect(pastes.joined() == String(repeating: "é", count: 1_500_000))
    #expect(keys.last == .character("q"))
  }

  @Test func keysHaveReadableNames() {
    #expect(TerminalKey.modified(.character("x"), .alt).description == "alt-x")
    #expect(TerminalKey.modified(.tab, .shift).description == "shift-tab")
    #expect(TerminalKey.modified(.right, [.control, .shift]).description == "ctrl-shift-right")
    #expect(TerminalKey.function(5).description == "f5")
    #expect(TerminalKey.insert.description == "insert")
  }
}
