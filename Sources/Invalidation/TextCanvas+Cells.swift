/// How a ``TextCanvas`` stores characters in its cells, and reads them back.
extension TextCanvas {
  /// The canvas as lines of text, trailing spaces removed; a wide character appears once.
  public var lines: [String] {
    (0..<size.height).map { row in
      var line = ""
      for glyph in glyphs[(row * size.width)..<((row + 1) * size.width)] {
        if let character = character(of: glyph) { line.append(character) }
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// The canvas as one string, lines joined by newlines.
  public var rendered: String { lines.joined(separator: "\n") }

  /// Whether two canvases show the same: the same size, and in every cell the same
  /// character (compared as `Character`s are) and style.
  public static func == (lhs: TextCanvas, rhs: TextCanvas) -> Bool {
    guard lhs.size == rhs.size, lhs.styles == rhs.styles else { return false }
    for index in lhs.glyphs.indices where !lhs.hasSameGlyph(atIndex: index, as: rhs) {
      return false
    }
    return true
  }

  // MARK: Reading cells

  /// The character a glyph shows; `nil` for a continuation.
  func character(of glyph: CanvasGlyph) -> Character? {
    if glyph.isContinuation { return nil }
    if glyph.isCluster { return clusters[glyph.payload] }
    return Character(Unicode.Scalar(glyph.payload) ?? "\u{FFFD}")
  }

  /// The cell and style at a cell index, decoded, for backends that walk cells one by one.
  package func cell(atIndex index: Int) -> (Cell, CellStyle) {
    let glyph = glyphs[index]
    let style = styles[index].style
    guard let character = character(of: glyph) else { return (.continuation, style) }
    return (glyph.isWide ? .wide(character) : .narrow(character), style)
  }

  /// The glyph at a cell index, for the terminal backend's row-major walks.
  @inlinable @inline(__always)
  package func glyph(atIndex index: Int) -> CanvasGlyph { glyphs[index] }

  /// Runs `body` with the glyphs and styles of every cell, row by row, for a backend's
  /// walk over a whole frame.
  @inlinable
  package func withCells<Result>(
    _ body: (UnsafeBufferPointer<CanvasGlyph>, UnsafeBufferPointer<PackedCellStyle>) throws ->
      Result
  ) rethrows -> Result {
    try glyphs.withUnsafeBufferPointer { glyphs in
      try styles.withUnsafeBufferPointer { styles in try body(glyphs, styles) }
    }
  }

  /// The packed style at a cell index.
  @inlinable @inline(__always)
  package func packedStyle(atIndex index: Int) -> PackedCellStyle { styles[index] }

  /// Whether the cell at `index` shows the same character here as in `other` (a canvas
  /// of the same size); styles aside.
  @inlinable @inline(__always)
  package func hasSameGlyph(atIndex index: Int, as other: TextCanvas) -> Bool {
    let mine = glyphs[index]
    let theirs = other.glyphs[index]
    if mine.raw == theirs.raw, !mine.isCluster { return true }
    guard mine.isCluster || theirs.isCluster else { return false }
    return hasSameCluster(mine, as: theirs, in: other)
  }

  /// ``hasSameGlyph(atIndex:as:)`` where either glyph is a cluster: the characters
  /// compared as `Character`s are.
  @usableFromInline
  func hasSameCluster(_ mine: CanvasGlyph, as theirs: CanvasGlyph, in other: TextCanvas) -> Bool {
    mine.isWide == theirs.isWide && character(of: mine) == other.character(of: theirs)
  }

  /// Whether the cell at `index` holds the very same glyph here as in `other` (a canvas
  /// of the same size): the same scalar, or a character of the same UTF-8. (A different
  /// spelling of an equal character counts as a change: it is only written again.)
  @inlinable @inline(__always)
  package func hasIdenticalGlyph(atIndex index: Int, as other: TextCanvas) -> Bool {
    let mine = glyphs[index]
    let theirs = other.glyphs[index]
    guard mine.isCluster || theirs.isCluster else { return mine.raw == theirs.raw }
    return hasIdenticalCluster(mine, as: theirs, in: other)
  }

  /// ``hasIdenticalGlyph(atIndex:as:)`` where either glyph is a cluster.
  @usableFromInline
  func hasIdenticalCluster(_ mine: CanvasGlyph, as theirs: CanvasGlyph, in other: TextCanvas)
    -> Bool
  {
    guard mine.isCluster, theirs.isCluster, mine.isWide == theirs.isWide else { return false }
    return clusters.utf8(at: mine.payload).elementsEqual(other.clusters.utf8(at: theirs.payload))
  }

  /// Appends the UTF-8 a glyph is written as: its character, or `?` for one that would
  /// act on a terminal (a control, a line or paragraph separator, a bidirectional
  /// control; see `CellText`). Nothing for a continuation.
  @inlinable @inline(__always)
  package func appendUTF8(of glyph: CanvasGlyph, to bytes: inout [UInt8]) {
    if glyph.raw & (CanvasGlyph.continuationFlag | CanvasGlyph.clusterFlag) != 0 {
      return appendUTF8(ofCluster: glyph, to: &bytes)
    }
    if glyph.isPrintableASCII { return bytes.append(UInt8(truncatingIfNeeded: glyph.raw)) }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CanvasGlyph.scalarUTF8Limit) {
      let count = glyph.writeScalarUTF8(to: $0.baseAddress!)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count]))
    }
  }

  /// Calls `body` with the UTF-8 a cluster glyph is written as (see
  /// ``appendUTF8(of:to:)``), read in place.
  package func withWrittenUTF8<Result>(
    ofCluster glyph: CanvasGlyph, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    clusters.withWrittenUTF8(at: glyph.payload, body)
  }

  /// ``appendUTF8(of:to:)`` for a cluster (or a continuation, which writes nothing).
  @usableFromInline
  func appendUTF8(ofCluster glyph: CanvasGlyph, to bytes: inout [UInt8]) {
    guard glyph.isCluster else { return }
    clusters.appendUTF8(at: glyph.payload, to: &bytes)
  }

  // MARK: Writing cells

  /// The cells `character` takes: its ``Swift/Character/terminalColumns``, except that a
  /// character the backends replace (a control, a bidirectional override or isolate)
  /// takes the one cell of its visible replacement.
  static func columns(of character: Character) -> Int {
    CellText.actsOnTheTerminal(character) ? 1 : character.terminalColumns
  }

  /// Draws `text`'s UTF-8 (`bytes`), as `draw(_:at:width:style:)` describes: runs of
  /// simple scalars that are characters on their own are stored straight from the bytes
  /// (see `SimpleGraphemes`); any other character is read from `text` and placed as
  /// `set` places it.
  mutating func drawUTF8(
    _ bytes: UnsafeBufferPointer<UInt8>, of text: String, at point: Point, width: Int?,
    style: CellStyle
  ) {
    var pen = TextPen(x: point.x, row: point.y, limit: width ?? Int.max)
    let packed = PackedCellStyle(style)
    while pen.offset < bytes.count, pen.x < size.width {
      guard drawSimpleRun(bytes, pen: &pen, style: packed) else { return }
      guard pen.offset < bytes.count, pen.x < size.width else { return }
      if let length = SimpleGraphemes.cluster(in: bytes, at: pen.offset) {
        // A letter with its accents, an emoji with its skin tone, a flag: stored straight
        // from the bytes too.
        let utf8 = UnsafeBufferPointer(rebasing: bytes[pen.offset..<(pen.offset + length)])
        // (Stored before it is known to fit: one that does not stays unused in the table
        // until the table is compacted.)
        let (index, columns) = clusters.indexAndColumns(ofClusterUTF8: utf8)
        guard pen.used + columns <= pen.limit else {
          if pen.used < pen.limit { place(" ", columns: 1, x: pen.x, row: pen.row, style: style) }
          return
        }
        let glyph = CanvasGlyph(cluster: index, wide: false)
        placeGlyph(glyph, columns: columns, x: pen.x, row: pen.row, style: style)
        compactClustersIfNeeded()
        pen.advance(columns: columns, bytes: length)
        continue
      }
      // Any other character: read it from the string.
      let index = text.utf8.index(text.utf8.startIndex, offsetBy: pen.offset)
      let character = text[index]
      let columns = Self.columns(of: character)
      guard pen.used + columns <= pen.limit else {
        if pen.used < pen.limit { place(" ", columns: 1, x: pen.x, row: pen.row, style: style) }
        return
      }
      place(character, columns: columns, x: pen.x, row: pen.row, style: style)
      pen.advance(columns: columns, bytes: character.utf8.count)
    }
  }

  /// Draws the simple characters from `pen`'s offset on, up to the first other one.
  ///
  /// - Returns: `false` once drawing is over (the width is used up); `true` at the end
  ///   of the text, the canvas's edge, or a character for the general path.
  private mutating func drawSimpleRun(
    _ bytes: UnsafeBufferPointer<UInt8>, pen: inout TextPen, style: PackedCellStyle
  ) -> Bool {
    let width = size.width
    return SimpleGraphemes.planeZeroColumns.withUnsafeBufferPointer { table in
      withCellBuffers { cells in
        // The pen in locals for the loop. Wrapping arithmetic is exact here: `x` stays
        // below the width, `offset` below the byte count, and `used` below `limit`.
        var (x, used, offset) = (pen.x, pen.used, pen.offset)
        let (row, limit, count) = (pen.row, pen.limit, bytes.count)
        defer { (pen.x, pen.used, pen.offset) = (x, used, offset) }
        let rowStart = row &* width
        var ahead: (offset: Int, value: UInt32, length: Int, columns: Int) = (-1, 0, 0, 0)
        while offset < count, x < width {
          let byte = bytes[offset]
          if byte &- 0x20 < 0x5F, offset &+ 1 == count || bytes[offset &+ 1] < 0x80 {
            // Printable ASCII before ASCII or the end: one cell.
            // (A one-column character always fits while a column is left.)
            guard used < limit else { return false }
            if x >= 0 {
              let run = cells.storeASCIIRun(
                bytes, from: offset, upTo: min(count, offset &+ min(width &- x, limit &- used)),
                at: rowStart &+ x, style: style)
              (x, used, offset) = (x &+ run, used &+ run, offset &+ run)
              continue
            }
            (x, used, offset) = (x &+ 1, used &+ 1, offset &+ 1)
            continue
          }
          // A simple scalar before the end, ASCII or another simple scalar is a character
          // of its own (see `SimpleGraphemes`); the plane-zero table, read here rather
          // than through a call, answers both for nearly all text. The scalar after this
          // one, when it was read to decide, is not read again.
          let (value, length, columns) =
            ahead.offset == offset
            ? (ahead.value, ahead.length, ahead.columns)
            : SimpleGraphemes.simpleScalar(in: bytes, at: offset, table: table)
          guard columns > 0 else { return true }
          let next = offset &+ length
          if next < count, bytes[next] >= 0x80 {
            let following = SimpleGraphemes.simpleScalar(in: bytes, at: next, table: table)
            ahead = (next, following.value, following.length, following.columns)
            guard ahead.columns > 0 else { return true }
          }
          guard used &+ columns <= limit else {
            if used < limit { cells.place(.blank, columns: 1, x: x, row: row, style: style) }
            return false
          }
          let glyph = CanvasGlyph(scalar: value, wide: false)
          if columns == 2, x >= 0, x &+ 1 < width {
            cells.store(glyph.wide(true), at: rowStart &+ x, style: style)
            cells.store(.continuation, at: rowStart &+ x &+ 1, style: style)
          } else {
            cells.place(glyph, columns: columns, x: x, row: row, style: style)
          }
          (x, used, offset) = (x &+ columns, used &+ columns, next)
        }
        return true
      }
    }
  }

  /// Puts `character`, `columns` wide, with its left half at column `x` of `row` (a row
  /// inside the canvas; `x` may be anywhere).
  mutating func place(_ character: Character, columns: Int, x: Int, row: Int, style: CellStyle) {
    // A character ending in a zero width joiner would join the next cell's emoji on the
    // screen (👍 + ZWJ, then ❤️, shows as one cluster): the joiner joins nothing here.
    // (Its UTF-8 ends in 0x8D, which rules out nearly every character cheaply.)
    if columns > 0, character.utf8.last == 0x8D, character.unicodeScalars.last == "\u{200D}" {
      var scalars = String.UnicodeScalarView(character.unicodeScalars)
      while scalars.last == "\u{200D}" { scalars.removeLast() }
      guard let trimmed = String(scalars).first else { return }
      place(trimmed, columns: Self.columns(of: trimmed), x: x, row: row, style: style)
      return
    }
    guard columns > 0 else { return attach(character, leftOf: x, row: row) }
    placeGlyph(glyph(for: character), columns: columns, x: x, row: row, style: style)
  }

  /// The glyph of `character` (one column wide; `placeGlyph` marks a wide one), its
  /// cluster stored if it has several scalars.
  mutating func glyph(for character: Character) -> CanvasGlyph {
    var scalars = character.unicodeScalars.makeIterator()
    if let first = scalars.next(), scalars.next() == nil {
      return CanvasGlyph(scalar: first.value, wide: false)
    }
    defer { compactClustersIfNeeded() }
    return CanvasGlyph(cluster: clusters.index(of: character), wide: false)
  }

  /// Puts a glyph, `columns` (1 or 2) wide, with its left half at column `x` of `row`.
  mutating func placeGlyph(_ glyph: CanvasGlyph, columns: Int, x: Int, row: Int, style: CellStyle) {
    let packed = PackedCellStyle(style)
    withCellBuffers { $0.place(glyph, columns: columns, x: x, row: row, style: packed) }
  }

  /// Joins a zero-width character to the character left of column `x`, if the two make
  /// one character of the same width; drops it otherwise.
  private mutating func attach(_ mark: Character, leftOf x: Int, row: Int) {
    guard x > 0, x <= size.width else { return }
    var index = row * size.width + x - 1
    if glyphs[index].isContinuation { index -= 1 }
    guard let base = character(of: glyphs[index]) else { return }
    let columns = glyphs[index].isWide ? 2 : 1
    let joined = String(base) + String(mark)
    guard joined.count == 1, let character = joined.first, character.terminalColumns == columns,
      character.unicodeScalars.last != "\u{200D}"
    else { return }
    glyphs[index] = glyph(for: character).wide(columns == 2)
  }

  /// Rebuilds the cluster table from the cells once it holds more characters than the
  /// cells could show (characters drawn over stay in the table until then), so a canvas
  /// drawn on for a long time keeps at most about twice what it shows.
  mutating func compactClustersIfNeeded() {
    guard clusters.count > 64, clusters.count > glyphs.count else { return }
    var compacted = ClusterTable()
    for index in glyphs.indices where glyphs[index].isCluster {
      let glyph = glyphs[index]
      let utf8 = Array(clusters.utf8(at: glyph.payload))
      let cluster = utf8.withUnsafeBufferPointer { compacted.index(ofUTF8: $0) }
      glyphs[index] = CanvasGlyph(cluster: cluster, wide: glyph.isWide)
    }
    clusters = compacted
  }
}

/// Where drawing a line of text stands.
struct TextPen {
  /// The column the next character goes to.
  var x: Int
  /// The row drawn on.
  let row: Int
  /// The most columns to use.
  let limit: Int
  /// The columns used so far.
  var used = 0
  /// The UTF-8 offset of the next character.
  var offset = 0

  init(x: Int, row: Int, limit: Int) {
    self.x = x
    self.row = row
    self.limit = limit
  }

  /// Moves past a character `columns` wide and `bytes` long.
  @inline(__always)
  mutating func advance(columns: Int, bytes: Int) {
    used += columns
    x = x.saturatingAdd(columns)
    offset += bytes
  }
}
