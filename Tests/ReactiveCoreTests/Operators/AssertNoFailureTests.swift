import ReactiveCore
import Testing

@Suite struct AssertNoFailureTests {
  // Mirrors as Combine's: what debuggers and OpenCombine's reflection tests see.
  @Test func assertNoFailureShowsWhereItTraps() {
    let publisher = CapturingPublisher<TestError>()
    let cancellable = publisher.assertNoFailure("PREFIX", file: "SomeFile.swift", line: 1987)
      .sink { _ in }
    #expect(publisher.children == ["file=SomeFile.swift", "line=1987", "prefix=PREFIX"])
    cancellable.cancel()
  }
}
