import Invalidation
import InvalidationTerminal
import ModelTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Thousands of random steps of sizes, draws, fills, boxes, composites, resizes and frame
/// buffer updates — negative, zero and huge numbers included — checked against a model of
/// the canvas computed with 128-bit arithmetic, and against the screen a terminal shows
/// after running the frame buffer's bytes. A failure names its seed (`RIPPLE_SEED`
/// replays it; `RIPPLE_FUZZ_STEPS` sets the number of steps).
@Suite struct CanvasRandomTests {
  /// The model: one character and style per cell, drawn cell by cell.
  struct Model: Equatable {
    var size: Size
    var cells: [[(Character, CellStyle)]]

    init(size: Size) {
      self.size = size
      cells = Array(
        repeating: Array(repeating: (" ", .plain), count: size.width), count: size.height)
    }

    static func == (lhs: Model, rhs: Model) -> Bool {
      lhs.size == rhs.size
        && zip(lhs.cells, rhs.cells).allSatisfy { zip($0, $1).allSatisfy { $0 == $1 } }
    }

    mutating func set(_ character: Character, _ x: Int128, _ y: Int128, _ style: CellStyle) {
      guard x >= 0, y >= 0, x < Int128(size.width), y < Int128(size.height) else { return }
      cells[Int(y)][Int(x)] = (character, style)
    }

    /// Calls `body` for each cell of the canvas inside `rect`.
    func each(in rect: Rect, _ body: (Int, Int) -> Void) {
      for y in 0..<size.height {
        for x in 0..<size.width where GeometryClampingTests.contains(rect, Point(x: x, y: y)) {
          body(x, y)
        }
      }
    }
  }

  enum Step: CustomStringConvertible {
    case resize(Size)
    case probe(Size)
    case set(Character, Point, CellStyle)
    case draw(String, Point, Int?, CellStyle)
    case fill(Rect, Character, CellStyle)
    case apply(CellStyle, Rect)
    case box(Rect, CellStyle)
    case composite(Size, Character, Point)
    case present
    case invalidate

    var description: String {
      switch self {
      case .resize(let size): "resize(\(size))"
      case .probe(let size): "probe(\(size))"
      case .set(let c, let p, _): "set(\(c.debugDescription), \(p))"
      case .draw(let text, let p, let width, _):
        "draw(\(text.debugDescription), \(p), width: \(width.map(String.init) ?? "nil"))"
      case .fill(let rect, let c, _): "fill(\(rect), \(c.debugDescription))"
      case .apply(_, let rect): "apply(\(rect))"
      case .box(let rect, _): "box(\(rect))"
      case .composite(let size, let c, let p): "composite(\(size) of \(c.debugDescription), \(p))"
      case .present: "present"
      case .invalidate: "invalidate"
      }
    }
  }

  /// Characters a user could put in a cell (no wide ones yet), controls included.
  static let alphabet: [Character] = [
    "a", "b", "Z", " ", "─", "é", "·", "█", "?", "~", "\u{1B}", "\u{9B}", "\r\n", "\u{202E}",
  ]
  static let styles: [CellStyle] = [
    .plain, CellStyle(attributes: .bold), CellStyle(foreground: .standard(.red)),
    CellStyle(foreground: .palette(42), background: .rgb(red: 1, green: 2, blue: 3)),
    CellStyle(background: .bright(.blue), attributes: [.reverse, .underline]),
  ]

  static func number(_ random: inout SeededGenerator, around limit: Int) -> Int {
    switch Int.random(in: 0..<20, using: &random) {
    case 0:
      [Int.min, Int.max, Int.min + 1, Int.max - 1, 65_535, -65_535].randomElement(
        using: &random)!
    case 1: Int.random(in: -3...0, using: &random)
    default: Int.random(in: -3...(limit + 3), using: &random)
    }
  }

  static func point(_ random: inout SeededGenerator) -> Point {
    Point(x: number(&random, around: 24), y: number(&random, around: 10))
  }

  static func rect(_ random: inout SeededGenerator) -> Rect {
    Rect(
      origin: point(&random),
      size: Size(
        width: number(&random, around: 24), height: number(&random, around: 10)))
  }

  static func text(_ random: inout SeededGenerator, _ alphabet: [Character]) -> String {
    String(
      (0..<Int.random(in: 0...30, using: &random)).map { _ in
        alphabet.randomElement(using: &random)!
      })
  }

  static func step(_ random: inout SeededGenerator, _ alphabet: [Character]) -> Step {
    let style = styles.randomElement(using: &random)!
    let character = alphabet.randomElement(using: &random)!
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<4:
      return .resize(
        Size(
          width: Int.random(in: -2...24, using: &random),
          height: Int.random(in: -2...10, using: &random)))
    case 4 where Int.random(in: 0..<4, using: &random) == 0:
      return .probe(
        Size(
          width: number(&random, around: 4_000), height: number(&random, around: 2_000)))
    case 5..<15: return .set(character, point(&random), style)
    case 15..<40:
      let width: Int? = Bool.random(using: &random) ? nil : number(&random, around: 24)
      return .draw(text(&random, alphabet), point(&random), width, style)
    case 40..<50: return .fill(rect(&random), character, style)
    case 50..<55: return .apply(style, rect(&random))
    case 55..<65: return .box(rect(&random), style)
    case 65..<75:
      return .composite(
        Size(
          width: number(&random, around: 8), height: number(&random, around: 4)), character,
        point(&random))
    case 75..<78: return .invalidate
    default: return .present
    }
  }

  /// Runs `steps`; returns what went wrong, if anything.
  static func run(_ steps: [Step], model checksModel: Bool = true) -> String? {
    var canvas = TextCanvas(size: Size(width: 12, height: 5))
    var model = Model(size: canvas.size)
    var buffer = FrameBuffer()
    var screen = ScreenEmulator(size: .zero, columns: \.terminalColumns)
    for (number, step) in steps.enumerated() {
      switch step {
      case .resize(let size):
        canvas = TextCanvas(size: size)
        model = Model(size: size.clampedForTest)
      case .probe(let size):
        // A canvas of any size, dropped at once (large ones are slow to render as lines).
        let probe = TextCanvas(size: size)
        let small = probe.size.width * probe.size.height <= 10_000
        guard probe.size == size.clampedForTest, !small || probe.lines.count == probe.size.height
        else {
          return "step \(number) \(step): size \(probe.size)"
        }
      case .set(let character, let point, let style):
        canvas.set(character, at: point, style: style)
        model.set(character, Int128(point.x), Int128(point.y), style)
      case .draw(let text, let point, let width, let style):
        canvas.draw(text, at: point, width: width, style: style)
        for (offset, character) in text.enumerated() {
          if let width, offset >= width { break }
          model.set(character, Int128(point.x) + Int128(offset), Int128(point.y), style)
        }
      case .fill(let rect, let character, let style):
        canvas.fill(rect, with: character, style: style)
        model.each(in: rect) { model.cells[$1][$0] = (character, style) }
      case .apply(let style, let rect):
        canvas.apply(style, in: rect)
        model.each(in: rect) { model.cells[$1][$0].1 = style }
      case .box(let rect, let style):
        canvas.drawBox(in: rect, style: style)
        guard rect.size.width >= 2, rect.size.height >= 2 else { break }
        let left = Int128(rect.origin.x)
        let top = Int128(rect.origin.y)
        let right = left + Int128(rect.size.width) - 1
        let bottom = top + Int128(rect.size.height) - 1
        for y in 0..<model.size.height {
          for x in 0..<model.size.width {
            let (x128, y128) = (Int128(x), Int128(y))
            let character: Character? =
              switch (x128 == left, x128 == right, y128 == top, y128 == bottom) {
              case (true, _, true, _): "┌"
              case (_, true, true, _): "┐"
              case (true, _, _, true): "└"
              case (_, true, _, true): "┘"
              case (_, _, true, _), (_, _, _, true): x128 > left && x128 < right ? "─" : nil
              case (true, _, _, _), (_, true, _, _): y128 > top && y128 < bottom ? "│" : nil
              default: nil
              }
            if let character { model.cells[y][x] = (character, style) }
          }
        }
      case .composite(let size, let character, let point):
        var stamp = TextCanvas(size: size)
        stamp.fill(Rect(origin: .zero, size: size), with: character)
        stamp.draw("ab", at: .zero, style: CellStyle(attributes: .bold))
        canvas.composite(stamp, at: point)
        for y in 0..<stamp.size.height {
          for x in 0..<stamp.size.width {
            let cell = Point(x: x, y: y)
            model.set(
              stamp[cell] ?? " ", Int128(point.x) + Int128(x), Int128(point.y) + Int128(y),
              stamp.style(at: cell)!)
          }
        }
      case .invalidate:
        buffer.invalidate()
      case .present:
        let bytes = buffer.update(to: canvas)
        if screen.size != canvas.size || bytes.starts(with: Array("\u{1B}[0m\u{1B}[2J".utf8)) {
          screen.resize(to: canvas.size)
        }
        screen.feed(bytes)
        if let error = screen.errors.first { return "step \(number) \(step): \(error)" }
        if let difference = difference(screen, canvas) {
          return "step \(number) \(step): the screen differs from the frame: \(difference)"
        }
        guard buffer.shown == canvas else { return "step \(number): shown is not the frame" }
      }
      guard canvas.size == model.size else {
        return "step \(number) \(step): size \(canvas.size), model \(model.size)"
      }
      if let broken = brokenWideCharacter(canvas) {
        return "step \(number) \(step): \(broken); canvas:\n\(canvas.rendered)"
      }
      guard checksModel else { continue }
      for y in 0..<model.size.height {
        for x in 0..<model.size.width {
          let point = Point(x: x, y: y)
          let (character, style) = model.cells[y][x]
          guard canvas[point] == character, canvas.style(at: point) == style else {
            return "step \(number) \(step): at \(point) \(canvas[point].debugDescription), "
              + "model \(character.debugDescription); canvas:\n\(canvas.rendered)"
          }
        }
      }
    }
    return nil
  }

  /// Where the screen and the frame differ, if they do.
  static func difference(_ screen: ScreenEmulator, _ frame: TextCanvas) -> String? {
    for y in 0..<frame.size.height {
      for x in 0..<frame.size.width {
        let point = Point(x: x, y: y)
        let expected: ScreenEmulator.Cell =
          frame.isContinuation(at: point) ? .continuation : .character(shown(frame[point]!))
        guard screen.cell(at: point) == expected,
          screen.style(at: point) == frame.style(at: point)
        else {
          return
            "at \(point): screen \(screen.cell(at: point)), frame \(expected)\nscreen:\n\(screen.lines.joined(separator: "\n"))"
            + "\nframe:\n\(frame.rendered)"
        }
      }
    }
    return nil
  }

  /// Where a wide character lacks a half or its halves differ in style, if anywhere.
  static func brokenWideCharacter(_ canvas: TextCanvas) -> String? {
    for y in 0..<canvas.size.height {
      for x in 0..<canvas.size.width {
        let point = Point(x: x, y: y)
        let left = Point(x: x - 1, y: y)
        if canvas.isContinuation(at: point) {
          guard x > 0, canvas[left]?.terminalColumns == 2 else {
            return "a continuation at \(point) after \(String(describing: canvas[left]))"
          }
          guard canvas.style(at: left) == canvas.style(at: point) else {
            return "the halves at \(point) differ in style"
          }
        } else if canvas[point]!.terminalColumns == 2,
          !canvas.isContinuation(at: Point(x: x + 1, y: y))
        {
          return "\(canvas[point]!) at \(point) without its right half"
        }
      }
    }
    return nil
  }

  /// What a terminal shows for a cell's character: itself, or `?` for a character that
  /// would act on the terminal.
  static func shown(_ character: Character) -> Character {
    let acts = character.unicodeScalars.contains {
      $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
        || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }
    return acts ? "?" : character
  }

  /// Removes steps one at a time while the run still fails: a minimal failing sequence.
  static func shrink(_ steps: [Step], model checksModel: Bool) -> [Step] {
    var steps = steps
    var index = 0
    while index < steps.count {
      var candidate = steps
      candidate.remove(at: index)
      if run(candidate, model: checksModel) != nil { steps = candidate } else { index += 1 }
    }
    return steps
  }

  /// Characters of every width: wide CJK and emoji (with skin tones, ZWJ families,
  /// flags), zero-width ones that join or vanish, narrow ones and controls.
  static let wideAlphabet: [Character] = [
    "a", " ", "─", "é", "買", "い", "🛒", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "ｶ", "Ｆ", "\u{301}",
    "\u{200B}", "\u{200D}", "\u{1B}", "\u{9B}", "\u{202E}",
  ]

  @Test func randomStepsMatchTheModelAndTheScreen() {
    Self.runRandom(alphabet: Self.alphabet, model: true)
  }

  @Test func randomWideTextKeepsWholeCharactersAndTheScreenExact() {
    Self.runRandom(alphabet: Self.wideAlphabet, model: false)
  }

  static func runRandom(alphabet: [Character], model checksModel: Bool) {
    let seed =
      getenv("RIPPLE_SEED").flatMap { UInt64(String(cString: $0)) }
      ?? UInt64.random(in: 0...UInt64.max)
    let total = getenv("RIPPLE_FUZZ_STEPS").flatMap { Int(String(cString: $0)) } ?? 5_000
    var random = SeededGenerator(state: seed)
    var done = 0
    while done < total {
      let steps = (0..<200).map { _ in Self.step(&random, alphabet) }
      done += steps.count
      if let failure = Self.run(steps, model: checksModel) {
        let minimal = Self.shrink(steps, model: checksModel)
        Issue.record(
          Comment(
            rawValue: "seed \(seed) (rerun with RIPPLE_SEED=\(seed)): \(failure)\n"
              + "minimal steps: \(minimal)\n"
              + "fails with: \(Self.run(minimal, model: checksModel) ?? "?")"))
        return
      }
    }
    print("CanvasRandomTests: \(done) steps, seed \(seed), model: \(checksModel)")
  }
}

extension Size {
  /// The size a canvas of this size has.
  var clampedForTest: Size {
    Size(
      width: min(max(0, width), TextCanvas.maximumSize.width),
      height: min(max(0, height), TextCanvas.maximumSize.height))
  }
}
