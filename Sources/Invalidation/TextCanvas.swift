/// A grid of characters that render nodes draw into: the headless stand-in for a
/// graphics context. ``rendered`` turns it into lines of text for a terminal or a test.
///
///     var canvas = TextCanvas(size: Size(width: 12, height: 3))
///     canvas.drawBox(in: Rect(x: 0, y: 0, width: 12, height: 3))
///     canvas.draw("hello", at: Point(x: 2, y: 1))
///     print(canvas.rendered)
///     // ┌──────────┐
///     // │ hello    │
///     // └──────────┘
///
/// Each cell holds one `Character` and a ``CellStyle``, stored compactly: four bytes for
/// the character (its scalar, or an index into the canvas's table of characters of
/// several scalars) beside the style, so copying, comparing and compositing cells retains
/// nothing. Characters are measured with
/// ``Swift/Character/terminalColumns``, as a terminal measures them:
///
/// - A wide character (most CJK, emoji) takes two cells: the left one holds it, the right
///   one is its *continuation* (``isContinuation(at:)``; its subscript is `nil`). Both
///   halves share one style.
/// - A wide character is never split: where only one of its halves would fit (at the
///   canvas's edge, or at the end of a `draw(_:at:width:style:)` width), a space is drawn
///   in that one cell instead.
/// - Writing over either half of a wide character blanks the other half, so no half of
///   one is ever left behind.
/// - A zero-width character (a lone combining mark, a zero width space) takes no cell:
///   it joins the character to its left when the two make one character of the same
///   width, and is dropped otherwise.
/// - A control character, or a bidirectional embedding, override or isolate, takes one
///   cell: the terminal backend shows it as `?` (see `FrameBuffer` in InvalidationTerminal).
///
///     var row = TextCanvas(size: Size(width: 8, height: 1))
///     row.draw("買い物", at: .zero)
///     print(row.lines)               // ["買い物"]: six cells
///     print(row[Point(x: 1, y: 0)])  // nil: the right half of 買
///
/// ``lines`` and ``rendered`` give the visible text: each wide character once.
public struct TextCanvas: Sendable, Equatable {
  /// The canvas size in cells.
  public let size: Size
  /// Each cell's character, row by row.
  @usableFromInline var glyphs: [CanvasGlyph]
  /// Each cell's style, row by row.
  @usableFromInline var styles: [PackedCellStyle]
  /// The characters of several scalars that `glyphs` refer to.
  @usableFromInline var clusters = ClusterTable()

  /// What one cell holds, decoded (for backends that walk cells one by one).
  package enum Cell: Hashable, Sendable {
    /// A character one column wide.
    case narrow(Character)
    /// A character two columns wide: the cell to its right is its continuation.
    case wide(Character)
    /// The right half of the wide character to its left.
    case continuation

    package static let blank = Cell.narrow(" ")
  }

  /// The largest canvas: 2048 columns by 1024 rows. Larger sizes are clamped to it, as a
  /// terminal's reported size is, so that no size (a terminal claiming 65535×65535, a
  /// node whose frame is `Int.max` wide) allocates more than about two million cells.
  /// That is wider than an 8K screen at a four-pixel font.
  public static let maximumSize = Size(width: 2_048, height: 1_024)

  /// Creates a blank canvas.
  ///
  /// A negative side is clamped to zero and a side past ``maximumSize`` to its maximum:
  /// ``size`` is the size the canvas has.
  ///
  /// - Parameter size: The number of columns and rows.
  public init(size: Size) {
    self.size = size.clamped(to: Self.maximumSize)
    glyphs = Array(repeating: .blank, count: self.size.width * self.size.height)
    styles = Array(repeating: PackedCellStyle.plain, count: glyphs.count)
  }

  /// A canvas of no cells, which holds no storage: a placeholder to swap a canvas with.
  package static var empty: TextCanvas { TextCanvas(size: .zero) }

  /// Makes every cell blank again, as a new canvas of this size is, in the storage it
  /// has: a node that redraws reuses its last layer instead of allocating one. The
  /// cluster table stays, so that characters drawn again (as they are on most frames)
  /// are found there, already measured; no cell refers to them until they are drawn, and
  /// the table is compacted as it would be after drawing over them.
  package mutating func erase() {
    glyphs.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
    styles.withUnsafeMutableBufferPointer { $0.update(repeating: .plain) }
  }

  /// The character at `point`, or `nil` outside the canvas and for the right half of a
  /// wide character (see ``isContinuation(at:)``).
  public subscript(point: Point) -> Character? {
    guard contains(point) else { return nil }
    return character(of: glyphs[point.y * size.width + point.x])
  }

  /// Whether the cell at `point` is the right half of a wide character, which the cell to
  /// its left holds.
  ///
  ///     var canvas = TextCanvas(size: Size(width: 4, height: 1))
  ///     canvas.draw("🛒", at: .zero)
  ///     canvas.isContinuation(at: Point(x: 1, y: 0))  // true
  ///
  /// - Parameter point: The cell; `false` outside the canvas.
  /// - Returns: Whether it continues the character to its left.
  public func isContinuation(at point: Point) -> Bool {
    guard contains(point) else { return false }
    return glyphs[point.y * size.width + point.x].isContinuation
  }

  /// The style of the cell at `point`, or `nil` outside the canvas.
  ///
  /// - Parameter point: The cell.
  /// - Returns: Its style.
  public func style(at point: Point) -> CellStyle? {
    guard contains(point) else { return nil }
    return styles[point.y * size.width + point.x].style
  }

  func contains(_ point: Point) -> Bool {
    point.x >= 0 && point.y >= 0 && point.x < size.width && point.y < size.height
  }

  /// Sets one cell (two for a wide character); points outside the canvas are ignored
  /// (clipped). A wide character whose other half would fall outside the canvas draws a
  /// space in the half that is inside; a zero-width character joins the character to the
  /// left of `point` if the two make one character of the same width.
  ///
  /// - Parameters:
  ///   - character: The character.
  ///   - point: The cell (the left one, for a wide character).
  ///   - style: Its look; plain by default.
  public mutating func set(_ character: Character, at point: Point, style: CellStyle = .plain) {
    guard point.y >= 0, point.y < size.height else { return }
    place(character, columns: Self.columns(of: character), x: point.x, row: point.y, style: style)
  }

  /// Draws text starting at `point`, clipped to the canvas (and to `width` columns if
  /// given; a width of zero or less draws nothing). Each character takes its
  /// ``Swift/Character/terminalColumns``; a wide character that does not fit in the
  /// columns left is drawn as one space, and drawing stops.
  ///
  /// - Parameters:
  ///   - text: The text to draw on one row.
  ///   - point: Where the first character goes.
  ///   - width: The most columns to use.
  ///   - style: The look of the drawn cells; plain by default.
  public mutating func draw(
    _ text: String, at point: Point, width: Int? = nil, style: CellStyle = .plain
  ) {
    guard point.y >= 0, point.y < size.height else { return }
    // Most text is native UTF-8, walked byte by byte (see `drawUTF8`); other text (a
    // bridged string) goes character by character.
    let drawn: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
      drawUTF8(bytes, of: text, at: point, width: width, style: style)
    }
    guard drawn == nil else { return }
    var x = point.x
    var used = 0
    for character in text {
      guard x < size.width else { break }
      let columns = Self.columns(of: character)
      if let width, used + columns > width {
        if used < width { place(" ", columns: 1, x: x, row: point.y, style: style) }
        break
      }
      place(character, columns: columns, x: x, row: point.y, style: style)
      used += columns
      x = x.saturatingAdd(columns)
    }
  }

  /// Fills a rectangle with one character. A wide character is repeated every two
  /// columns from the rectangle's left edge; a column left over at either end (or cut by
  /// the canvas's edge) gets a space. A zero-width character fills nothing.
  ///
  /// - Parameters:
  ///   - rect: The cells to fill, clipped to the canvas.
  ///   - character: The character.
  ///   - style: The look of the filled cells; plain by default.
  public mutating func fill(_ rect: Rect, with character: Character, style: CellStyle = .plain) {
    let columns = rect.columns(within: size.width)
    let width = Self.columns(of: character)
    guard width > 0, !columns.isEmpty else { return }
    for y in rect.rows(within: size.height) {
      guard width == 2 else {
        for x in columns { place(character, columns: 1, x: x, row: y, style: style) }
        continue
      }
      // The wide characters sit at even offsets from the rectangle's left edge (the
      // wrapping difference has the right parity even when it overflows).
      var x = columns.lowerBound
      if (x &- rect.origin.x) & 1 == 1 {
        place(" ", columns: 1, x: x, row: y, style: style)
        x += 1
      }
      while x < columns.upperBound {
        if x + 1 < columns.upperBound {
          place(character, columns: 2, x: x, row: y, style: style)
        } else {
          place(" ", columns: 1, x: x, row: y, style: style)
        }
        x += 2
      }
    }
  }

  /// Restyles the cells of a rectangle, keeping their characters. A wide character with
  /// one half inside the rectangle is restyled whole.
  ///
  /// - Parameters:
  ///   - rect: The cells to restyle, clipped to the canvas.
  ///   - style: Their new look.
  public mutating func apply(_ style: CellStyle, in rect: Rect) {
    let columns = rect.columns(within: size.width)
    guard !columns.isEmpty else { return }
    for y in rect.rows(within: size.height) {
      let row = y * size.width
      let packed = PackedCellStyle(style)
      for x in columns { styles[row + x] = packed }
      if glyphs[row + columns.lowerBound].isContinuation {
        styles[row + columns.lowerBound - 1] = packed
      }
      if glyphs[row + columns.upperBound - 1].isWide {
        styles[row + columns.upperBound] = packed
      }
    }
  }

  /// Draws a box-drawing frame around the edge of `rect`; the edges outside the canvas
  /// are clipped, and a rectangle narrower or shorter than two cells draws nothing.
  ///
  /// - Parameters:
  ///   - rect: The rectangle whose edge gets the frame.
  ///   - style: The look of the frame; plain by default.
  public mutating func drawBox(in rect: Rect, style: CellStyle = .plain) {
    guard rect.size.width >= 2, rect.size.height >= 2 else { return }
    let left = rect.origin.x
    let top = rect.origin.y
    // The far edges, or `nil` past `Int.max` (then they cannot show).
    let right = Self.farEdge(left, rect.size.width)
    let bottom = Self.farEdge(top, rect.size.height)
    // Only the columns and rows of the edges that can show are walked.
    let inner = rect.insetBy(dx: 1, dy: 1)
    for x in inner.columns(within: size.width) {
      set("─", at: Point(x: x, y: top), style: style)
      if let bottom { set("─", at: Point(x: x, y: bottom), style: style) }
    }
    for y in inner.rows(within: size.height) {
      set("│", at: Point(x: left, y: y), style: style)
      if let right { set("│", at: Point(x: right, y: y), style: style) }
    }
    set("┌", at: Point(x: left, y: top), style: style)
    if let right { set("┐", at: Point(x: right, y: top), style: style) }
    if let bottom { set("└", at: Point(x: left, y: bottom), style: style) }
    if let right, let bottom { set("┘", at: Point(x: right, y: bottom), style: style) }
  }

  /// `start + length - 1`, or `nil` if that is past `Int.max`.
  private static func farEdge(_ start: Int, _ length: Int) -> Int? {
    let (edge, overflow) = start.addingReportingOverflow(length - 1)
    return overflow ? nil : edge
  }

  /// Copies `other` onto this canvas with its top-left at `point`, clipped. A wide
  /// character cut by this canvas's edge leaves a space in its half that is inside.
  ///
  /// - Parameters:
  ///   - other: The canvas to copy.
  ///   - point: Where its top-left cell goes; any point, near or far.
  public mutating func composite(_ other: TextCanvas, at point: Point) {
    // The part of `other` that lands on this canvas, in this canvas's coordinates.
    let target = Rect(origin: point, size: other.size)
    let columns = target.columns(within: size.width)
    guard !columns.isEmpty else { return }
    let width = size.width
    let rows = target.rows(within: size.height)
    let (low, high) = (columns.lowerBound, columns.upperBound)
    // `other`'s clusters are stored here either all at once, as they are (when they are
    // no more than the cells that land here: one copy, no lookups), or one by one as
    // cells refer to them, each once (an index + 1 in `clusterMap`; 0 until then). The
    // table is moved out while the cells are buffers, and back after.
    let appendsWholeTable = other.clusters.count <= columns.count * rows.count
    var clusterMap = [UInt32](repeating: 0, count: appendsWholeTable ? 0 : other.clusters.count)
    var table = clusters
    clusters = ClusterTable()
    let appendedBase =
      appendsWholeTable && other.clusters.count > 0 ? table.append(contentsOf: other.clusters) : 0
    withCellBuffers { cells in
      other.glyphs.withUnsafeBufferPointer { glyphs in
        other.styles.withUnsafeBufferPointer { styles in
          for y in rows {
            // `source + x` is the cell of `other` that lands on column `x`.
            let source = (y - point.y) * other.size.width - point.x
            let row = y * width
            // A wide character of this canvas with one half inside the row's range loses
            // the other half (every cell inside is written).
            if low > 0, cells.glyphs[row + low].isContinuation {
              cells.glyphs[row + low - 1] = .blank
            }
            if high < width, cells.glyphs[row + high - 1].isWide {
              cells.glyphs[row + high] = .blank
            }
            // The other canvas's cells were checked when they were drawn there: copied
            // as they are, their clusters stored here.
            cells.copyStyles(from: styles, at: source + low, to: row + low, count: high - low)
            if appendsWholeTable {
              cells.copyGlyphs(
                from: glyphs, at: source + low, to: row + low, count: high - low,
                clusterOffset: appendedBase)
            } else {
              for x in low..<high {
                var glyph = glyphs[source + x]
                if glyph.isCluster {
                  let index = Int(glyph.payload)
                  if clusterMap[index] == 0 {
                    let utf8 = other.clusters.utf8(at: glyph.payload)
                    let stored = utf8.withUnsafeBufferPointer { table.index(ofUTF8: $0) }
                    clusterMap[index] = UInt32(stored + 1)
                  }
                  glyph = CanvasGlyph(cluster: Int(clusterMap[index] - 1), wide: glyph.isWide)
                }
                cells.glyphs[row + x] = glyph
              }
            }
            // A wide character cut by an edge leaves a space in its half that is inside:
            // the right half at the left edge, the left half at this canvas's right edge.
            if glyphs[source + low].isContinuation { cells.glyphs[row + low] = .blank }
            if high == width, glyphs[source + high - 1].isWide {
              cells.glyphs[row + high - 1] = .blank
            }
          }
        }
      }
    }
    clusters = table
    compactClustersIfNeeded()
  }
}
