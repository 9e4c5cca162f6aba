import ReactiveCore
import Testing

@Suite struct MapErrorTests {
  @Test func mapErrorAndSetFailureType() {
    let mapped = collectAll(Fail<Int, TestError>(error: .oops).mapError { _ in TestError.other })
    #expect(mapped.1 == [.failure(.other)])
    let typed = collectAll(Just(1).setFailureType(to: TestError.self))
    #expect(typed.0 == [1])
    #expect(typed.1 == [.finished])
  }
}
