import ReactiveCore
import Testing

@Suite struct IgnoreOutputTests {
  @Test func ignoreOutputReplaceEmptyReplaceError() {
    let ignored = collectAll((1...3).publisher.ignoreOutput())
    #expect(ignored.0.isEmpty)
    #expect(ignored.1 == [.finished])
    #expect(collectAll(Empty<Int, Never>().replaceEmpty(with: 9)).0 == [9])
    #expect(collectAll(Just(1).replaceEmpty(with: 9)).0 == [1])
    #expect(collectAll(Fail<Int, TestError>(error: .oops).replaceError(with: 0)).0 == [0])
  }
}
