/// What cell text may reach a terminal as itself: the canvas measures a replaced
/// character as its one-cell replacement, and the terminal and HTML backends write the
/// replacement, so the three agree.
@usableFromInline
package enum CellText {
  /// What is written instead of a character that would act on the terminal: `?`, one
  /// column wide everywhere and 7-bit.
  @inlinable package static var replacement: UInt8 { 0x3F }

  /// Whether `character` would act on the terminal instead of showing: a C0 control (ESC
  /// starts a sequence, CR and LF move the cursor, BEL rings), DEL, a C1 control
  /// (U+0080–U+009F: VTE, GNU screen and mosh read U+009B as CSI and U+009D as OSC, so a
  /// label could clear the screen or write the clipboard), the line and paragraph
  /// separators (U+2028, U+2029: the only characters of Unicode's Zl and Zp categories,
  /// which some terminals and every HTML line-breaking rule treat as a new line), or a
  /// bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which
  /// reorders the cells after it on terminals that implement bidi.
  package static func actsOnTheTerminal(_ character: Character) -> Bool {
    character.unicodeScalars.contains { actsOnTheTerminal($0.value) }
  }

  /// Whether the scalar `value` would act on the terminal (see the character's form).
  @inlinable
  package static func actsOnTheTerminal(_ value: UInt32) -> Bool {
    switch value {
    case 0x20..<0x7F: false
    case 0..<0x20, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
