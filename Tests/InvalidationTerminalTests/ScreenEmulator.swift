import Invalidation
import InvalidationTerminal

/// A tiny terminal for tests: it runs the bytes ``FrameBuffer`` writes (cursor moves,
/// clears, SGR styles, text) and keeps the cells they leave on screen, so a test can
/// check that what a terminal would show is the frame — whatever the diff skipped.
///
/// Anything the backend must never send is recorded in ``errors`` instead of being
/// guessed at: a control byte in text, a sequence it does not know, text past the right
/// edge (which would wrap), a non-ASCII byte inside an escape sequence.
struct ScreenEmulator {
  /// What one screen cell holds: a character, or the right half of a wide one.
  enum Cell: Equatable, CustomStringConvertible {
    case character(Character)
    case continuation

    var description: String {
      switch self {
      case .character(let character): String(character)
      case .continuation: "⟨cont⟩"
      }
    }
  }

  private(set) var size: Size
  private(set) var cells: [Cell]
  private(set) var styles: [CellStyle]
  private(set) var cursor = Point.zero
  private(set) var pen = CellStyle.plain
  private(set) var errors: [String] = []
  /// The columns a character takes; one for every character until wide ones are measured.
  let columns: (Character) -> Int

  init(size: Size, columns: @escaping (Character) -> Int = { _ in 1 }) {
    self.size = size
    self.columns = columns
    cells = Array(repeating: .character(" "), count: size.width * size.height)
    styles = Array(repeating: .plain, count: size.width * size.height)
  }

  /// A terminal of a new size, blank (a resize that loses what was shown).
  mutating func resize(to size: Size) {
    self = ScreenEmulator(size: size, columns: columns)
  }

  func cell(at point: Point) -> Cell { cells[point.y * size.width + point.x] }
  func style(at point: Point) -> CellStyle { styles[point.y * size.width + point.x] }

  /// The screen as lines, trailing spaces removed, continuation cells left out.
  var lines: [String] {
    (0..<size.height).map { row in
      var line = ""
      for column in 0..<size.width {
        if case .character(let character) = cells[row * size.width + column] {
          line.append(character)
        }
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  mutating func feed(_ bytes: [UInt8]) {
    var index = 0
    var text: [UInt8] = []
    func flushText() {
      guard !text.isEmpty else { return }
      for character in String(decoding: text, as: UTF8.self) { put(character) }
      text.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B {
        flushText()
        index = escape(bytes, at: index)
      } else {
        if byte < 0x20 || byte == 0x7F {
          errors.append("control byte \(byte) in text")
        }
        text.append(byte)
        index += 1
      }
    }
    flushText()
  }

  /// Runs the sequence at `start`; returns the index after it.
  private mutating func escape(_ bytes: [UInt8], at start: Int) -> Int {
    guard start + 1 < bytes.count else {
      errors.append("a lone ESC at the end")
      return bytes.count
    }
    guard bytes[start + 1] == 0x5B else {
      errors.append("ESC followed by \(bytes[start + 1])")
      return start + 2
    }
    var end = start + 2
    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) {
      if bytes[end] >= 0x80 || bytes[end] < 0x20 {
        errors.append("byte \(bytes[end]) inside a CSI sequence")
      }
      end += 1
    }
    guard end < bytes.count else {
      errors.append("an unfinished CSI sequence")
      return bytes.count
    }
    let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
    let final = bytes[end]
    let isPrivate = body.hasPrefix("?")
    let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0) ?? 0
    }
    switch (final, isPrivate) {
    case (0x48, false):  // H
      let row = max(1, numbers.first ?? 1)
      let column = max(1, numbers.count > 1 ? numbers[1] : 1)
      if row > size.height || column > size.width {
        errors.append("cursor moved outside the screen to \(row);\(column)")
      }
      cursor = Point(x: column - 1, y: row - 1)
    case (0x4A, false):  // J
      if numbers == [2] {
        cells = Array(repeating: .character(" "), count: cells.count)
        styles = Array(repeating: pen, count: styles.count)
      } else {
        errors.append("unexpected erase \(body)J")
      }
    case (0x6D, false): select(numbers)
    case (0x68, true), (0x6C, true): break  // modes: alternate screen, cursor, paste…
    default: errors.append("unknown sequence \(body)\(Character(Unicode.Scalar(final)))")
    }
    return end + 1
  }

  private mutating func select(_ numbers: [Int]) {
    var index = 0
    func color(_ base: Int) -> CellColor? {
      let code = numbers[index]
      switch code - base {
      case 0...7: return .standard(CellColor.StandardColor(rawValue: UInt8(code - base))!)
      case 60...67: return .bright(CellColor.StandardColor(rawValue: UInt8(code - base - 60))!)
      case 8 where index + 2 < numbers.count && numbers[index + 1] == 5:
        index += 2
        return .palette(UInt8(numbers[index]))
      case 8 where index + 4 < numbers.count && numbers[index + 1] == 2:
        index += 4
        return .rgb(
          red: UInt8(numbers[index - 2]), green: UInt8(numbers[index - 1]),
          blue: UInt8(numbers[index]))
      default:
        errors.append("unknown colour \(numbers)")
        return nil
      }
    }
    while index < numbers.count {
      switch numbers[index] {
      case 0: pen = .plain
      case 1: pen.attributes.insert(.bold)
      case 2: pen.attributes.insert(.dim)
      case 3: pen.attributes.insert(.italic)
      case 4: pen.attributes.insert(.underline)
      case 7: pen.attributes.insert(.reverse)
      case 30...37, 90...97, 38: pen.foreground = color(30)
      case 40...47, 100...107, 48: pen.background = color(40)
      default: errors.append("unknown SGR \(numbers[index])")
      }
      index += 1
    }
  }

  /// Writes one character at the cursor as a terminal does: a wide character takes two
  /// cells, and overwriting either half of a wide character blanks the other half.
  private mutating func put(_ character: Character) {
    let width = columns(character)
    if width == 0 {
      errors.append("zero-width character \(character.unicodeScalars.map(\.value)) written alone")
      return
    }
    if character.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.value < 0xA0 }) {
      errors.append("C1 control in text")
    }
    if character.unicodeScalars.contains(where: {
      (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }) {
      errors.append("bidi override in text")
    }
    guard cursor.y < size.height, cursor.x + width <= size.width else {
      errors.append("text \(character) past the edge at \(cursor)")
      return
    }
    for column in cursor.x..<(cursor.x + width) { breakWide(at: column) }
    let index = cursor.y * size.width + cursor.x
    cells[index] = .character(character)
    styles[index] = pen
    if width == 2 {
      cells[index + 1] = .continuation
      styles[index + 1] = pen
    }
    cursor.x += width
  }

  /// Blanks the other half of a wide character that `column` of the cursor's row is half of.
  private mutating func breakWide(at column: Int) {
    let index = cursor.y * size.width + column
    switch cells[index] {
    case .continuation:
      cells[index - 1] = .character(" ")
      cells[index] = .character(" ")
    case .character(let character) where columns(character) == 2 && column + 1 < size.width:
      cells[index + 1] = .character(" ")
    default: break
    }
  }
}
