import ReactiveCore
import Testing

@Suite struct BreakpointTests {
  @Test func breakpointPassesEverythingThroughWhenClosuresSayNo() {
    let result = collectAll([1, 2].publisher.breakpoint(receiveOutput: { _ in false }))
    #expect(result.0 == [1, 2])
    #expect(collectAll([1].publisher.breakpointOnError()).1 == [.finished])
  }
}
