import Testing

@testable import Invalidation

/// The fast path that draws text from its UTF-8 (`SimpleGraphemes`) against Swift's own
/// grapheme breaking and widths: every scalar it calls simple, every extender, and random
/// text drawn both ways.
@Suite struct SimpleGraphemeTests {
  /// Every simple scalar.
  static let simpleScalars: [Unicode.Scalar] = (0x20...0x1FAFF).compactMap { value in
    SimpleGraphemes.isSimple(UInt32(value)) ? Unicode.Scalar(UInt32(value)) : nil
  }

  /// One scalar of each grapheme break class that simple scalars have: Other, LV, LVT.
  static let representatives: [Unicode.Scalar] = ["a", "中", "가", "각", "🛒", "→", "é"]

  /// A simple scalar is a character on its own beside any other (checked against one of
  /// each class they have), an extender joins it (so it is no control), and its width is
  /// what `Character.terminalColumns` says.
  @Test func everySimpleScalarStandsAloneAndHasItsWidth() {
    var failures: [String] = []
    for scalar in Self.simpleScalars {
      let character = Character(scalar)
      let columns = SimpleGraphemes.columns(ofSimple: scalar.value)
      if columns != character.terminalColumns
        || columns != TerminalText.tableColumns(of: scalar.value) || columns < 1
        || CellText.actsOnTheTerminal(character)
      {
        failures.append("\(scalar.value): \(columns) columns")
      }
      var joined = String.UnicodeScalarView()
      joined.append(scalar)
      joined.append("\u{301}")
      if String(joined).count != 1 { failures.append("\(scalar.value): no mark joins it") }
      for other in Self.representatives {
        var pair = String.UnicodeScalarView()
        pair.append(scalar)
        pair.append(other)
        var reversed = String.UnicodeScalarView()
        reversed.append(other)
        reversed.append(scalar)
        if String(pair).count != 2 || String(reversed).count != 2 {
          failures.append("\(scalar.value) joins \(other.value)")
        }
      }
      if failures.count > 20 { break }
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(Self.simpleScalars.count > 40_000)
  }

  /// The plane-zero table says what the functions say, for every scalar there.
  @Test func thePlaneZeroTableAgreesWithTheFunctions() {
    var failures: [UInt32] = []
    SimpleGraphemes.planeZeroColumns.withUnsafeBufferPointer { table in
      for value in UInt32(0)..<0x10000 {
        let expected =
          SimpleGraphemes.isSimple(value) ? SimpleGraphemes.columns(ofSimple: value) : 0
        if SimpleGraphemes.simpleColumns(of: value, in: table) != expected {
          failures.append(value)
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  /// An extender joins whatever simple scalar it follows, and is never simple itself.
  @Test func everyExtenderJoinsTheCharacterBeforeIt() {
    var failures: [UInt32] = []
    for value in UInt32(0x300)...0x1F3FF where SimpleGraphemes.isExtender(value) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if SimpleGraphemes.isSimple(value) { failures.append(value) }
      for base in Self.representatives {
        var joined = String.UnicodeScalarView()
        joined.append(base)
        joined.append(scalar)
        if String(joined).count != 1 { failures.append(value) }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  /// The emoji the fast path joins with a zero width joiner are the pictographs: a face,
  /// a person, a rainbow join; a skin tone, a flag's half and a symbol outside the emoji
  /// blocks do not.
  @Test func theJoinableEmojiAreThePictographs() {
    for joinable in ["👨", "👩", "🌈", "🔥", "🚀", "🧑", "🫶"] {
      #expect(SimpleGraphemes.isJoinableEmoji(joinable.unicodeScalars.first!.value), "\(joinable)")
    }
    for other: UInt32 in [0x1F3FB, 0x1F1E6, 0x2764, 0x41, 0x4E2D, 0x1FB00] {
      #expect(!SimpleGraphemes.isJoinableEmoji(other), "\(String(other, radix: 16))")
    }
  }

  /// Pieces random text is made of: simple scalars, extenders, joiners, jamo, flags'
  /// halves, controls, separators and bidirectional controls, so that every shape of
  /// character meets every other.
  static let pieces: [String] = [
    "a", "Z", " ", "#", "1", "é", "e", "\u{301}", "\u{308}", "中", "한", "가", "\u{1100}",
    "\u{1161}", "\u{11A8}", "👍", "🏽", "\u{FE0F}", "\u{FE0E}", "\u{20E3}", "\u{200D}", "🇫", "🇷",
    "👨", "👩", "→", "ー", "ア", "\u{3099}", "\t", "\r", "\n", "\u{0}", "\u{7F}", "\u{85}",
    "\u{2028}", "\u{2029}", "\u{202E}", "\u{2066}", "\u{AD}", "\u{200B}", "\u{E0041}", "❤",
    "☀", "😀", "\u{1F1E6}", "€", "°", "Ω", "Ж", "\u{0483}", "\u{0E31}", "\u{0903}",
    "\u{200D}👩", "👨\u{200D}👩\u{200D}👧", "🏳\u{FE0F}\u{200D}🌈", "\u{1F700}", "\u{303F}",
  ]

  /// Random text drawn through the fast path gives the canvas that placing its
  /// characters one by one gives, at any position and width limit.
  @Test(arguments: 0..<8)
  func drawingMatchesPlacingEachCharacter(_ seed: Int) {
    drawRandomText(seed: UInt64(seed) &+ 0x5EED, over: nil)
  }

  /// The same over a row of wide characters at an odd or even offset, so that every
  /// kind of run (ASCII ones above all) starts and ends on either half of one.
  @Test(arguments: 0..<8)
  func drawingOverWideCharactersMatchesPlacingEachCharacter(_ seed: Int) {
    drawRandomText(seed: UInt64(seed) &+ 0xB16, over: seed.isMultiple(of: 2) ? "中한👍" : " 中한")
  }

  private func drawRandomText(seed: UInt64, over background: String?) {
    var generator = SeededGenerator(seed: seed)
    var blank = TextCanvas(size: Size(width: 16, height: 2))
    if let background {
      blank.draw(String(repeating: background, count: 4), at: Point(x: 0, y: 1))
    }
    for _ in 0..<400 {
      let length = Int.random(in: 0...24, using: &generator)
      let text = (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
      let x = Int.random(in: -3...6, using: &generator)
      let width: Int? =
        Bool.random(using: &generator) ? Int.random(in: -1...20, using: &generator) : nil
      let style = CellStyle(foreground: .standard(.red))
      var drawn = blank
      drawn.draw(text, at: Point(x: x, y: 1), width: width, style: style)
      var placed = blank
      var column = x
      var used = 0
      for character in text {
        guard column < 16 else { break }
        let columns = TextCanvas.columns(of: character)
        if let width, used + columns > width {
          if used < width { placed.set(" ", at: Point(x: column, y: 1), style: style) }
          break
        }
        placed.set(character, at: Point(x: column, y: 1), style: style)
        used += columns
        column += columns
      }
      #expect(
        drawn == placed,
        "\(text.unicodeScalars.map { $0.value }) at \(x), width \(String(describing: width))")
      #expect(drawn.lines == placed.lines)
    }
  }
}

/// A small deterministic generator (SplitMix64), so a failing case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
