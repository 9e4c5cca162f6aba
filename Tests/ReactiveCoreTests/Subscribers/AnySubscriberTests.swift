import ReactiveCore
import Testing

@Suite struct AnySubscriberTests {
  // Mirrors as Combine's: what debuggers and OpenCombine's reflection tests see.
  @Test func aClosureBuiltAnySubscriberReflectsAsItsDescription() {
    let mirror = Mirror(reflecting: AnySubscriber<Int, Never>())
    #expect(String(describing: mirror.subjectType) == "String")
    #expect(mirror.children.isEmpty)
  }
}
