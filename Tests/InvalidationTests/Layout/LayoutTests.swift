import Invalidation
import Testing

@Suite struct LayoutTests {
  /// A width, the lengths and spacing to split it with, and the parts' (x, width).
  struct SplitCase: Sendable, CustomTestStringConvertible {
    var width: Int
    var lengths: [LayoutLength]
    var spacing: Int
    var expected: [(Int, Int)]
    var testDescription: String { "\(width) split \(lengths) spacing \(spacing)" }
  }

  static let splitCases: [SplitCase] = [
    SplitCase(
      width: 30, lengths: [.fixed(10), .fill(1)], spacing: 0, expected: [(0, 10), (10, 20)]),
    SplitCase(
      width: 30, lengths: [.fixed(10), .fill(1)], spacing: 1, expected: [(0, 10), (11, 19)]),
    SplitCase(width: 5, lengths: [.fixed(10), .fill(1)], spacing: 0, expected: [(0, 5), (5, 0)]),
    SplitCase(width: 10, lengths: [.fill(1), .fill(2)], spacing: 0, expected: [(0, 4), (4, 6)]),
    SplitCase(
      width: 10, lengths: [.fill(1), .fixed(3), .fill(1)], spacing: 1,
      expected: [(0, 3), (4, 3), (8, 2)]),
    SplitCase(width: 0, lengths: [.fixed(3), .fill(1)], spacing: 2, expected: [(0, 0), (0, 0)]),
    SplitCase(width: -7, lengths: [.fixed(3), .fill(1)], spacing: 0, expected: [(0, 0), (0, 0)]),
    SplitCase(
      width: 3, lengths: [.fill(1), .fill(1), .fill(1)], spacing: 5,
      expected: [(0, 1), (2, 0), (3, 0)]),
    SplitCase(
      width: 8, lengths: [.fixed(-2), .fill(0), .fill(-1)], spacing: 0,
      expected: [(0, 0), (0, 0), (0, 0)]),
  ]

  @Test(arguments: splitCases)
  func columnsSplitTheWidthWithoutOverlapOrNegativeSizes(split: SplitCase) {
    let parts = Rect(x: 0, y: 2, width: split.width, height: 4)
      .splitColumns(split.lengths, spacing: split.spacing)
    #expect(parts.map(\.origin.x) == split.expected.map(\.0))
    #expect(parts.map(\.size.width) == split.expected.map(\.1))
    #expect(parts.allSatisfy { $0.origin.y == 2 && $0.size.height == 4 })
  }

  @Test func rowsSplitTheHeightAndHugeSizesDoNotOverflow() {
    let rows = Rect(x: 1, y: 0, width: 80, height: 24).splitRows([.fixed(1), .fill(1), .fixed(1)])
    #expect(
      rows == [
        Rect(x: 1, y: 0, width: 80, height: 1), Rect(x: 1, y: 1, width: 80, height: 22),
        Rect(x: 1, y: 23, width: 80, height: 1),
      ])
    let huge = Rect(x: Int.max - 5, y: 0, width: Int.max, height: 1)
      .splitColumns([.fill(Int.max), .fill(Int.max), .fixed(Int.max)], spacing: Int.max)
    #expect(huge.allSatisfy { $0.size.width >= 0 })
    let parts = Rect(x: 0, y: 0, width: 80, height: 24)
      .splitColumns([.fixed(20), .fill(1)], spacing: 1)
    #expect(
      parts == [Rect(x: 0, y: 0, width: 20, height: 24), Rect(x: 21, y: 0, width: 59, height: 24)])
  }

  @Test(arguments: [
    ("abc", TextAlignment.leading, 7, ["a", "b", "c", ".", ".", ".", "."]),
    ("abc", .center, 7, [".", ".", "a", "b", "c", ".", "."]),
    ("abc", .trailing, 7, [".", ".", ".", ".", "a", "b", "c"]),
    ("abcdefghij", .trailing, 7, ["a", "b", "c", "d", "e", "f", "g"]),
    ("買い", .center, 7, [".", "買", "|", "い", "|", ".", "."]),
    ("買い物", .trailing, 5, ["買", "|", "い", "|", " "]),
    ("買い物", .leading, 0, [".", ".", ".", ".", ".", ".", "."]),
  ])
  func textIsAlignedAndClipped(
    text: String, alignment: TextAlignment, width: Int, expected: [String]
  ) {
    var canvas = TextCanvas(size: Size(width: expected.count, height: 1))
    canvas.fill(Rect(x: 0, y: 0, width: expected.count, height: 1), with: ".")
    canvas.draw(text, in: Rect(x: 0, y: 0, width: width, height: 1), alignment: alignment)
    #expect(cells(canvas) == expected)
  }
}
