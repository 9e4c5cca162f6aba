import Invalidation
import InvalidationTerminal
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Sizes no canvas can have: negative, zero, and far past any screen.
let extremeSizes: [Size] = [
  Size(width: -1, height: -1), Size(width: -3, height: -4), Size(width: 0, height: 0),
  Size(width: 0, height: 5), Size(width: 5, height: 0), Size(width: -5, height: 3),
  Size(width: 65_535, height: 65_535), Size(width: Int.max, height: Int.max),
  Size(width: Int.min, height: Int.min), Size(width: Int.max, height: Int.min),
  Size(width: 1, height: Int.max),
]

@Suite struct GeometryClampingTests {
  @Test(arguments: extremeSizes)
  func aCanvasClampsItsSizeAndStillRenders(size: Size) {
    let canvas = TextCanvas(size: size)
    #expect(canvas.size.width == min(max(0, size.width), TextCanvas.maximumSize.width))
    #expect(canvas.size.height == min(max(0, size.height), TextCanvas.maximumSize.height))
    #expect(canvas.lines.count == canvas.size.height)
    #expect(canvas[Point(x: 0, y: 0)] == (canvas.size.width * canvas.size.height > 0 ? " " : nil))
  }

  @Test func theCapIsDocumentedAndSmallEnoughForAFrame() {
    #expect(TextCanvas.maximumSize == Size(width: 2_048, height: 1_024))
  }

  @Test(arguments: [
    Rect(x: -5, y: -5, width: Int.max, height: Int.max),
    Rect(x: Int.min, y: Int.min, width: Int.max, height: Int.max),
    Rect(x: Int.max, y: Int.max, width: Int.max, height: Int.max),
    Rect(x: 2, y: 1, width: -4, height: 3),
    Rect(x: Int.min, y: 0, width: Int.max, height: 1),
    Rect(x: -1, y: -1, width: 4, height: 4),
  ])
  func fillsAndStylesClipAnyRectangle(rect: Rect) {
    var canvas = TextCanvas(size: Size(width: 6, height: 3))
    canvas.fill(rect, with: "#")
    canvas.apply(CellStyle(attributes: .bold), in: rect)
    for y in 0..<3 {
      for x in 0..<6 {
        let inside = Self.contains(rect, Point(x: x, y: y))
        #expect(canvas[Point(x: x, y: y)] == (inside ? "#" : " "))
        #expect(
          canvas.style(at: Point(x: x, y: y)) == (inside ? CellStyle(attributes: .bold) : .plain))
      }
    }
  }

  @Test func aBoxLargerThanTheCanvasDrawsTheEdgesThatShow() {
    var canvas = TextCanvas(size: Size(width: 6, height: 3))
    canvas.drawBox(in: Rect(x: 2, y: 1, width: Int.max, height: Int.max))
    #expect(canvas.lines == ["", "  ┌───", "  │"])
    var whole = TextCanvas(size: Size(width: 4, height: 3))
    whole.drawBox(in: Rect(x: Int.min, y: Int.min, width: Int.max, height: Int.max))
    whole.drawBox(in: Rect(x: Int.max - 1, y: Int.max - 1, width: Int.max, height: Int.max))
    whole.drawBox(in: Rect(x: 0, y: 0, width: -2, height: 9))
    #expect(whole.lines == ["", "", ""])
    var right = TextCanvas(size: Size(width: 4, height: 3))
    right.drawBox(in: Rect(x: Int.min, y: -1, width: Int.max, height: 3))
    #expect(right.lines == ["", "", ""])
    right.drawBox(in: Rect(x: -10, y: -1, width: 12, height: 3))
    #expect(right.lines == [" │", "─┘", ""])
  }

  @Test func drawingAndCompositingFarAwayNeverOverflows() {
    var canvas = TextCanvas(size: Size(width: 5, height: 2))
    canvas.draw("abc", at: Point(x: Int.max - 1, y: 0))
    canvas.draw("abc", at: Point(x: Int.min, y: Int.min))
    canvas.draw("abcdefgh", at: Point(x: -2, y: 1), width: Int.max)
    canvas.draw("xyz", at: Point(x: 0, y: 0), width: -1)
    canvas.draw("xyz", at: Point(x: 0, y: 0), width: Int.min)
    var stamp = TextCanvas(size: Size(width: 2, height: 2))
    stamp.fill(Rect(x: 0, y: 0, width: 2, height: 2), with: "*")
    canvas.composite(stamp, at: Point(x: Int.max, y: Int.max))
    canvas.composite(stamp, at: Point(x: Int.min, y: Int.min))
    canvas.composite(stamp, at: Point(x: Int.max - 1, y: 0))
    canvas.composite(stamp, at: Point(x: 4, y: -1))
    #expect(canvas.lines == ["    *", "cdefg"])
  }

  @Test func rectInsetsNeverGoNegative() {
    #expect(
      Rect(x: 0, y: 0, width: 10, height: 3).insetBy(dx: 2, dy: 1)
        == Rect(x: 2, y: 1, width: 6, height: 1))
    #expect(
      Rect(x: 0, y: 0, width: 3, height: 3).insetBy(dx: 2, dy: 0)
        == Rect(x: 2, y: 0, width: 0, height: 3))
    #expect(
      Rect(x: 1, y: 1, width: 2, height: 2).insetBy(dx: -1, dy: -1)
        == Rect(x: 0, y: 0, width: 4, height: 4))
    #expect(
      Rect(x: 0, y: 0, width: Int.max, height: 1).insetBy(dx: -1, dy: Int.max).size
        == Size(width: Int.max, height: 0))
    #expect(
      Rect(x: Int.max, y: Int.min, width: 1, height: 1).insetBy(dx: Int.max, dy: Int.min).origin
        == Point(x: Int.max, y: Int.min))
  }

  @Test(arguments: extremeSizes)
  func aNodeTreeOfAnySizeRendersWithoutTrapping(size: Size) {
    let root = HeadlessNode(frame: Rect(origin: .zero, size: Size(width: 8, height: 3)))
    let boxed = BoxNode(frame: Rect(origin: Point(x: 1, y: 1), size: size))
    let far = BoxNode(frame: Rect(origin: Point(x: Int.max, y: Int.min), size: size))
    root.addSubnode(boxed)
    root.addSubnode(far)
    boxed.addSubnode(BoxNode(frame: Rect(origin: Point(x: Int.max, y: Int.max), size: size)))
    root.renderPass()
    #expect(boxed.frame.size == TextCanvas(size: size).size)
    #expect(boxed.frame.origin == Point(x: 1, y: 1))
    #expect(root.snapshot().size == Size(width: 8, height: 3))
    let big = HeadlessNode(frame: Rect(origin: Point(x: Int.min, y: Int.max), size: size))
    big.addSubnode(BoxNode(frame: Rect(origin: .zero, size: Size(width: 3, height: 3))))
    big.renderPass()
    #expect(big.snapshot().size == TextCanvas(size: size).size)
    // A clean tree of any size stays clean: the clamped layer matches the frame.
    #expect(big.renderPass().drawn == 0)
  }

  @Test(arguments: extremeSizes)
  func aFrameBufferRepaintsAnySize(size: Size) {
    var buffer = FrameBuffer()
    var frame = TextCanvas(size: size)
    frame.drawBox(in: Rect(origin: .zero, size: size))
    let bytes = buffer.update(to: frame)
    #expect(bytes.starts(with: Array("\u{1B}[0m\u{1B}[2J".utf8)))
    #expect(buffer.update(to: frame).isEmpty)
    _ = buffer.update(to: TextCanvas(size: Size(width: 3, height: 2)))
  }

  @Test(arguments: [
    (Size(width: 65_535, height: 65_535), Size(width: 2_048, height: 1_024)),
    (Size(width: -4, height: 9), Size(width: 0, height: 9)),
    (Size(width: 1, height: 1), Size(width: 1, height: 1)),
    (Size(width: Int.max, height: Int.min), Size(width: 2_048, height: 0)),
  ])
  func aBackendClampsTheSizeItIsGiven(size: Size, clamped: Size) {
    let scheduler = TestScheduler()
    let root = BoxNode(frame: Rect(x: 0, y: 0, width: 10, height: 4))
    let loop = RenderLoop(root: root, scheduler: scheduler)
    let backend = TerminalBackend(loop: loop, writer: TerminalWriter { _ in })
    scheduler.advance()
    backend.resize(to: size)
    scheduler.advance()
    #expect(root.frame.size == clamped)
  }

  static func contains(_ rect: Rect, _ point: Point) -> Bool {
    let x = Int128(point.x) - Int128(rect.origin.x)
    let y = Int128(point.y) - Int128(rect.origin.y)
    return x >= 0 && y >= 0 && x < Int128(rect.size.width) && y < Int128(rect.size.height)
  }
}

/// A node that frames its bounds.
final class BoxNode: HeadlessNode {
  override func draw(in canvas: inout TextCanvas) {
    canvas.drawBox(in: bounds)
    canvas.draw("box", at: Point(x: 1, y: 1), width: bounds.size.width - 2)
  }
}
