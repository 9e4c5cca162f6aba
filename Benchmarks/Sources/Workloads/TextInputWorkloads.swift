import Ripple

/// `terminal_text_input_key`: a key typed at the end of a one-line `TextInput` that holds
/// 1,000,000 characters, and the field drawn again (80 columns), against appending the
/// character to an array by hand and formatting the last 80 columns. What the key costs
/// must not grow with the text.
public enum TextInputWorkloads {
  /// The text's length.
  static let length = 1_000_000

  // The benchmark runs on one thread; the field lives for the whole process.
  nonisolated(unsafe) static let input: TextInput = {
    let input = TextInput(
      text: String(repeating: "a", count: length), frame: Rect(x: 0, y: 0, width: 80, height: 1))
    input.renderPass()
    return input
  }()

  /// Ripple's side: per operation a key (a character, then a Backspace, so that the
  /// length stays put) and a render pass that draws the field.
  public static func keyAtTheEnd(_ n: Int) {
    let input = self.input
    for index in 0..<n {
      _ = input.handle(index % 2 == 0 ? .character("x") : .backspace)
      input.renderPass()
      blackHole &+= input.cursor
    }
  }

  nonisolated(unsafe) static var characters = [Character](repeating: "a", count: length)

  /// The baseline: the same edit on a `[Character]`, and the last 80 characters
  /// formatted into bytes.
  public static func handWrittenKey(_ n: Int) {
    for index in 0..<n {
      if index % 2 == 0 { characters.append("x") } else { characters.removeLast() }
      var line: [UInt8] = []
      line.reserveCapacity(80)
      for character in characters.suffix(80) { line += character.utf8 }
      blackHole &+= line.count
    }
  }
}
