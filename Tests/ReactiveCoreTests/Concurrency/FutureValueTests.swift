import ReactiveCore
import Testing

@Suite struct FutureValueTests {
  @Test func futureValue() async throws {
    let future = Future<Int, Never> { $0(.success(42)) }
    #expect(await future.value == 42)
    let failing = Future<Int, TestError> { $0(.failure(.oops)) }
    await #expect(throws: TestError.oops) { try await failing.value }
  }
}
