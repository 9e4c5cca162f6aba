import ReactiveCore
import Testing

@Suite struct MinMaxTests {
  // The reducing operators (`reduce`, `collect()`, `count`, `min`/`max`, `contains`,
  // `allSatisfy`, `first`, `last` and their `where`/`try` forms) as Combine shapes them.
  @Test func minAndMaxKeepTheFirstOfEqualElements() {
    // Ties keep the element seen first, as Combine's `max(by:)` replaces only on a
    // strictly increasing pair.
    let pairs = [(1, "a"), (3, "b"), (3, "c"), (1, "d")]
    var maxLabel: String?
    var minLabel: String?
    _ = pairs.publisher.max { $0.0 < $1.0 }.sink { maxLabel = $0.1 }
    _ = pairs.publisher.min { $0.0 < $1.0 }.sink { minLabel = $0.1 }
    #expect(maxLabel == "b")
    #expect(minLabel == "a")
  }
}
