/// How much of a row or a column one part of a split takes (see
/// ``Rect/splitColumns(_:spacing:)``).
public enum LayoutLength: Hashable, Sendable {
  /// Exactly this many cells, or what is left when the space runs out; never negative.
  case fixed(Int)
  /// A share of what the fixed parts and the spacing leave, in proportion to the weight
  /// (`.fill(2)` gets twice what `.fill(1)` gets).
  case fill(Int)
}

extension Rect {
  /// Splits the rectangle into columns side by side, left to right, as ratatui's
  /// `Layout` does: fixed widths first (in order, as far as the width goes), then the
  /// rest shared among the fills by weight; one cell of rounding goes to each of the
  /// first fills. The parts never overlap, never leave the rectangle and are never
  /// negative, however small (or negative) the rectangle.
  ///
  ///     let parts = Rect(x: 0, y: 0, width: 80, height: 24)
  ///       .splitColumns([.fixed(20), .fill(1)], spacing: 1)
  ///     // [(0, 0) 20×24, (21, 0) 59×24]: a sidebar and the main area
  ///
  /// - Parameters:
  ///   - lengths: Each column's width.
  ///   - spacing: The empty columns between two parts; zero or more, and less (the same in
  ///     each gap) where the width is too small.
  /// - Returns: One rectangle per length, each as tall as this one.
  public func splitColumns(_ lengths: [LayoutLength], spacing: Int = 0) -> [Rect] {
    Self.split(size.width, at: origin.x, lengths, spacing: spacing).map { start, length in
      Rect(x: start, y: origin.y, width: length, height: max(0, size.height))
    }
  }

  /// Splits the rectangle into rows, top to bottom, as ``splitColumns(_:spacing:)``
  /// splits it into columns.
  ///
  ///     let parts = Rect(x: 0, y: 0, width: 80, height: 24).splitRows([.fixed(1), .fill(1), .fixed(1)])
  ///     // a title row, the body, a status row
  ///
  /// - Parameters:
  ///   - lengths: Each row's height.
  ///   - spacing: The empty rows between two parts; zero or more.
  /// - Returns: One rectangle per length, each as wide as this one.
  public func splitRows(_ lengths: [LayoutLength], spacing: Int = 0) -> [Rect] {
    Self.split(size.height, at: origin.y, lengths, spacing: spacing).map { start, length in
      Rect(x: origin.x, y: start, width: max(0, size.width), height: length)
    }
  }

  /// The start and length of each part along one axis.
  private static func split(
    _ total: Int, at origin: Int, _ lengths: [LayoutLength], spacing: Int
  ) -> [(start: Int, length: Int)] {
    guard !lengths.isEmpty else { return [] }
    var available = max(0, total)
    // The spacing first: as asked, or as much as the width allows, the same in each gap.
    let gapCount = lengths.count - 1
    let gaps = gapCount > 0 ? min(max(0, spacing), available / gapCount) : 0
    available -= gaps * gapCount
    var sizes = [Int](repeating: 0, count: lengths.count)
    for (index, length) in lengths.enumerated() {
      if case .fixed(let cells) = length {
        sizes[index] = min(available, max(0, cells))
        available -= sizes[index]
      }
    }
    let weights = lengths.map { length -> Int in
      if case .fill(let weight) = length { return max(0, weight) }
      return 0
    }
    let totalWeight = weights.reduce(Int128(0)) { $0 + Int128($1) }
    if totalWeight > 0 {
      var left = available
      for (index, weight) in weights.enumerated() where weight > 0 {
        let share = Int(Int128(available) * Int128(weight) / totalWeight)
        sizes[index] = share
        left -= share
      }
      for (index, weight) in weights.enumerated() where weight > 0 && left > 0 {
        sizes[index] += 1
        left -= 1
      }
    }
    var start = origin
    var parts: [(start: Int, length: Int)] = []
    for (index, size) in sizes.enumerated() {
      parts.append((start, size))
      start = start.saturatingAdd(size)
      if index < sizes.count - 1 { start = start.saturatingAdd(gaps) }
    }
    return parts
  }
}

/// Where text sits in the columns it is given (see ``TextCanvas/draw(_:in:alignment:style:)``).
public enum TextAlignment: Hashable, Sendable {
  /// At the left edge.
  case leading
  /// In the middle; an odd column left over goes to the right.
  case center
  /// At the right edge.
  case trailing
}

extension TextCanvas {
  /// Draws one line of text on the first row of `rect`, aligned in its width and clipped
  /// to it (and to the canvas); columns are counted as the terminal counts them, and a
  /// wide character cut by the edge leaves a space.
  ///
  ///     canvas.draw("Total: 42", in: Rect(x: 0, y: 0, width: 20, height: 1), alignment: .trailing)
  ///     // "           Total: 42"
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - rect: Where it goes; only its first row and its width matter.
  ///   - alignment: Where the text sits when narrower than the rectangle; text wider than
  ///     the rectangle always starts at its left edge and is cut at its right.
  ///   - style: The look of the drawn cells; plain by default.
  public mutating func draw(
    _ text: String, in rect: Rect, alignment: TextAlignment = .leading,
    style: CellStyle = .plain
  ) {
    guard rect.size.width > 0, rect.size.height > 0 else { return }
    let columns = text.reduce(0) { $0 + Self.columns(of: $1) }
    let room = max(0, rect.size.width - columns)
    let offset: Int
    switch alignment {
    case .leading: offset = 0
    case .center: offset = room / 2
    case .trailing: offset = room
    }
    draw(
      text, at: Point(x: rect.origin.x.saturatingAdd(offset), y: rect.origin.y),
      width: rect.size.width - offset, style: style)
  }
}
