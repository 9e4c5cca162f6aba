import Invalidation
import Testing

/// One character, written as its scalars so that the table shows exactly what is measured.
struct WidthCase: CustomTestStringConvertible, Sendable {
  let what: String
  let scalars: [UInt32]
  let columns: Int

  init(_ what: String, _ scalars: [UInt32], _ columns: Int) {
    self.what = what
    self.scalars = scalars
    self.columns = columns
  }

  var character: Character {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars.map { Unicode.Scalar($0)! })
    return Character(String(text))
  }

  var testDescription: String { "\(what) → \(columns)" }
}

@Suite("Character.terminalColumns")
struct TerminalColumnsTests {
  static let cases: [WidthCase] = [
    // ASCII and other narrow scripts.
    WidthCase("Latin a", [0x61], 1),
    WidthCase("space", [0x20], 1),
    WidthCase("tilde", [0x7E], 1),
    WidthCase("é precomposed", [0xE9], 1),
    WidthCase("e + combining acute", [0x65, 0x301], 1),
    WidthCase("a + two combining marks", [0x61, 0x301, 0x323], 1),
    WidthCase("Greek omega", [0x3A9], 1),
    WidthCase("Cyrillic zhe", [0x416], 1),
    WidthCase("Thai ko kai", [0xE01], 1),
    WidthCase("Thai ko kai + sara i", [0xE01, 0xE34], 1),
    WidthCase("Hebrew alef + point", [0x5D0, 0x5B8], 1),
    WidthCase("euro sign", [0x20AC], 1),
    WidthCase("arrow", [0x2192], 1),
    WidthCase("box drawing", [0x2500], 1),
    WidthCase("halfwidth katakana a", [0xFF71], 1),
    WidthCase("private use", [0xE000], 1),
    WidthCase("soft hyphen", [0xAD], 1),
    // East Asian wide and fullwidth.
    WidthCase("CJK 買", [0x8CB7], 2),
    WidthCase("CJK 中", [0x4E2D], 2),
    WidthCase("hiragana い", [0x3044], 2),
    WidthCase("katakana ア", [0x30A2], 2),
    WidthCase("prolonged sound mark", [0x30FC], 2),
    WidthCase("ideographic full stop", [0x3002], 2),
    WidthCase("ideographic space", [0x3000], 2),
    WidthCase("fullwidth A", [0xFF21], 2),
    WidthCase("CJK extension B 𠀋", [0x2000B], 2),
    WidthCase("か + combining voiced mark", [0x304B, 0x3099], 2),
    WidthCase("Hangul syllable 한", [0xD55C], 2),
    WidthCase("Hangul jamo L V T", [0x1100, 0x1161, 0x11A8], 2),
    WidthCase("Hangul jamo L V", [0x1112, 0x1161], 2),
    // Emoji.
    WidthCase("shopping cart 🛒", [0x1F6D2], 2),
    WidthCase("grinning face", [0x1F600], 2),
    WidthCase("watch (emoji presentation)", [0x231A], 2),
    WidthCase("heavy heart, text by default", [0x2764], 1),
    WidthCase("heavy heart + VS16", [0x2764, 0xFE0F], 2),
    WidthCase("smiling face, text by default", [0x263A], 1),
    WidthCase("smiling face + VS16", [0x263A, 0xFE0F], 2),
    WidthCase("smiling face + VS15", [0x263A, 0xFE0E], 1),
    WidthCase("thumbs up + skin tone", [0x1F44D, 0x1F3FD], 2),
    WidthCase(
      "family ZWJ sequence", [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467, 0x200D, 0x1F466], 2),
    WidthCase("rainbow flag", [0x1F3F3, 0xFE0F, 0x200D, 0x1F308], 2),
    WidthCase("technologist, light skin", [0x1F9D1, 0x1F3FB, 0x200D, 0x1F4BB], 2),
    WidthCase("flag of Japan", [0x1F1EF, 0x1F1F5], 2),
    WidthCase("flag of the US", [0x1F1FA, 0x1F1F8], 2),
    WidthCase("one regional indicator", [0x1F1EF], 1),
    WidthCase(
      "flag of England (tags)", [0x1F3F4, 0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067, 0xE007F], 2),
    WidthCase("keycap 1 with VS16", [0x31, 0xFE0F, 0x20E3], 2),
    WidthCase("keycap # with VS16", [0x23, 0xFE0F, 0x20E3], 2),
    WidthCase("keycap 1 without VS16", [0x31, 0x20E3], 1),
    // Zero width on their own.
    WidthCase("zero width space", [0x200B], 0),
    WidthCase("zero width joiner", [0x200D], 0),
    WidthCase("zero width non-joiner", [0x200C], 0),
    WidthCase("variation selector 16 alone", [0xFE0F], 0),
    WidthCase("combining acute alone", [0x301], 0),
    WidthCase("combining kana voiced mark alone", [0x3099], 0),
    WidthCase("byte order mark", [0xFEFF], 0),
    WidthCase("Hangul jungseong alone", [0x1161], 0),
    // Controls: shown as one replacement cell.
    WidthCase("tab", [0x09], 1),
    WidthCase("line feed", [0x0A], 1),
    WidthCase("escape", [0x1B], 1),
    WidthCase("delete", [0x7F], 1),
    WidthCase("C1 CSI", [0x9B], 1),
    WidthCase("carriage return + line feed", [0x0D, 0x0A], 1),
  ]

  @Test(arguments: cases)
  func columns(of widthCase: WidthCase) {
    #expect(widthCase.character.terminalColumns == widthCase.columns)
  }

  @Test(arguments: [
    ("", 0),
    ("hello", 5),
    ("買い物 🛒", 9),
    ("e\u{301}e", 2),
    ("a\r\nb", 3),
    ("│ 한국어 │", 10),
    ("👨‍👩‍👧 and 🇯🇵", 9),
    ("\u{200B}", 0),
  ])
  func stringColumns(text: String, columns: Int) {
    #expect(text.terminalColumns == columns)
    #expect(text[...].terminalColumns == columns)
  }

  @Test func everyScalarHasAWidthOfZeroOneOrTwo() {
    var counts = [0, 0, 0]
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let columns = Character(scalar).terminalColumns
      #expect((0...2).contains(columns))
      if (0...2).contains(columns) { counts[columns] += 1 }
    }
    // Every class is populated: the table was generated and is searched.
    #expect(counts[0] > 1_000)
    #expect(counts[2] > 100_000)
  }
}
