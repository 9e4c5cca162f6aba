import Invalidation
import Testing

/// Properties written without options: `@Invalidating var title = ""` compiled before and
/// never invalidated, so a page silently showed stale output. It invalidates `.display`.
private final class Plain: RecordingNode {
  @Invalidating var title = ""
  @ViewInvalidating var legacy = 0
  @Invalidating(isEqual: { $0.id == $1.id }) var model = Model(id: 1, note: "a")
}

/// A headless node drawing a property declared without options.
private final class Caption: HeadlessNode {
  @Invalidating var text = "old"
  override func draw(in canvas: inout TextCanvas) { canvas.draw(text, at: .zero) }
}

@Suite struct InvalidatingDefaultTests {
  @Test func withoutOptionsAChangeInvalidatesDisplay() {
    let node = Plain()
    node.title = "new"
    node.legacy = 1
    #expect(node.calls == ["display", "display"])
  }

  @Test func withoutOptionsAnEqualValueInvalidatesNothing() {
    let node = Plain()
    node.title = ""
    node.model = Model(id: 1, note: "b")
    #expect(node.calls.isEmpty)
    #expect(node.model.note == "b")
  }

  @Test func withoutOptionsAndWithAnEqualityAChangeInvalidatesDisplay() {
    let node = Plain()
    node.model = Model(id: 2, note: "a")
    #expect(node.calls == ["display"])
  }

  @Test func aHeadlessNodeRedrawsAPropertyDeclaredWithoutOptions() {
    let caption = Caption(frame: Rect(x: 0, y: 0, width: 3, height: 1))
    caption.renderPass()
    caption.text = "new"
    #expect(caption.needsDisplay)
    caption.renderPass()
    #expect(caption.snapshot().rendered == "new")
  }
}
