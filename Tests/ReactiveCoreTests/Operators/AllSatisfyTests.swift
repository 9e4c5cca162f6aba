import ReactiveCore
import Testing

@Suite struct AllSatisfyTests {
  @Test func tryAllSatisfyFailsOnThrow() {
    let result = collectAll([1, 2].publisher.tryAllSatisfy { _ in throw TestError.oops })
    #expect(result.0.isEmpty)
    #expect(result.1.count == 1)
  }
}
