import Invalidation
import Testing

private final class Widget: RecordingNode {
  @Invalidating(.layout) var layout = 0
  @Invalidating(.display) var display = 0
  @Invalidating(.constraints) var constraints = 0
  @Invalidating(.intrinsicContentSize) var intrinsic = 0
  @Invalidating(.restorableState) var restorable = 0
  @Invalidating(.configuration) var configuration = 0
  @Invalidating(.layout, .constraints, .intrinsicContentSize) var magic: Double = 1234
  @Invalidating(.layout, .focus) var custom: Double = 1
  @Invalidating(.display, .display) var twice = 0
  @ViewInvalidating(.layout) var legacy = 0
  @Invalidating(
    .layout, .display, .constraints, .intrinsicContentSize, .restorableState, .configuration,
    .focus, .layout, .display, .constraints, .intrinsicContentSize, .focus)
  var twelve = 0
  @Invalidating(.display, isEqual: { $0.id == $1.id }) var model = Model(id: 1, note: "a")
  @Invalidating(.layout) var partial = PartiallyEqual(key: 1, extra: "a")
}

struct Model {
  var id: Int
  var note: String
}

/// An `Equatable` value given its own equality: the closure decides, not `==`.
private final class Overriding: RecordingNode {
  @Invalidating(.layout, isEqual: { $0.key == $1.key }) var value = PartiallyEqual(
    key: 1, extra: "a")
  @Invalidating(.display, isEqual: { _, _ in false }) var always = 0
}

/// A generic node: its accessors are not specialised for a concrete type, so the
/// `Equatable` comparison runs through the dynamic path.
private final class GenericNode<Value: Equatable>: RecordingNode {
  @Invalidating var value: Value
  @Invalidating var optional: Value?
  init(_ value: Value) {
    _value = Invalidating(wrappedValue: value, .layout)
    _optional = Invalidating(wrappedValue: nil, .display)
  }
}

/// Equality that ignores `extra`: setting a value that differs only there must still
/// store it.
struct PartiallyEqual: Equatable {
  var key: Int
  var extra: String
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
}

@Suite struct InvalidatingTests {
  @Test(arguments: [
    "layout", "display", "constraints", "intrinsicContentSize", "restorableState", "configuration",
  ])
  func eachBuiltInCallsExactlyItsEntryPoint(call: String) {
    let widget = Widget()
    let properties: [String: ReferenceWritableKeyPath<Widget, Int>] = [
      "layout": \.layout, "display": \.display, "constraints": \.constraints,
      "intrinsicContentSize": \.intrinsic, "restorableState": \.restorable,
      "configuration": \.configuration,
    ]
    widget[keyPath: properties[call]!] = 1
    #expect(widget.calls == [call])
  }

  @Test func severalOptionsRunInTheOrderWritten() {
    let widget = Widget()
    widget.magic = 1
    #expect(widget.calls == ["layout", "constraints", "intrinsicContentSize"])
  }

  @Test func equalValueRunsNothing() {
    let widget = Widget()
    widget.magic = 1234
    widget.layout = 0
    #expect(widget.calls.isEmpty)
  }

  @Test func customInvalidatorRunsAfterTheBuiltIn() {
    let widget = Widget()
    widget.custom = 2
    #expect(widget.calls == ["layout", "focus"])
  }

  @Test func repeatedOptionRunsAgain() {
    let widget = Widget()
    widget.twice = 1
    #expect(widget.calls == ["display", "display"])
  }

  @Test func twelveOptionsAllRun() {
    let widget = Widget()
    widget.twelve = 1
    #expect(
      widget.calls == [
        "layout", "display", "constraints", "intrinsicContentSize", "restorableState",
        "configuration", "focus", "layout", "display", "constraints", "intrinsicContentSize",
        "focus",
      ])
  }

  @Test func explicitEqualityForNonEquatableValues() {
    let widget = Widget()
    widget.model = Model(id: 1, note: "changed")
    #expect(widget.calls.isEmpty)
    #expect(widget.model.note == "changed")
    widget.model = Model(id: 2, note: "changed")
    #expect(widget.calls == ["display"])
  }

  @Test func anEqualityClosureWinsOverEquatable() {
    let node = Overriding()
    node.value = PartiallyEqual(key: 1, extra: "b")
    node.always = 0
    #expect(node.calls == ["display"])
    node.value = PartiallyEqual(key: 2, extra: "b")
    #expect(node.calls == ["display", "layout"])
  }

  @Test func genericNodesCompareThroughEquatable() {
    let node = GenericNode("a")
    node.value = "a"
    node.optional = nil
    #expect(node.calls.isEmpty)
    node.value = "b"
    node.optional = "b"
    node.optional = "b"
    #expect(node.calls == ["layout", "display"])
    #expect(node.value == "b" && node.optional == "b")
  }

  @Test func equalValueIsStillStored() {
    let widget = Widget()
    widget.partial = PartiallyEqual(key: 1, extra: "kept")
    #expect(widget.calls.isEmpty)
    #expect(widget.partial.extra == "kept")
  }

  @Test func newValueIsStoredBeforeInvalidating() {
    final class Probe: RenderNode {
      @Invalidating(.layout) var value = 0
      var seen: [Int] = []
      func setNeedsLayout() { seen.append(value) }
      func setNeedsDisplay() {}
      func setNeedsUpdateConstraints() {}
      func invalidateIntrinsicContentSize() {}
      func invalidateRestorableState() {}
      func setNeedsUpdateConfiguration() {}
    }
    let probe = Probe()
    probe.value = 7
    #expect(probe.seen == [7])
  }

  @Test func viewInvalidatingIsTheSameWrapper() {
    let widget = Widget()
    widget.legacy = 3
    #expect(widget.calls == ["layout"])
  }
}
