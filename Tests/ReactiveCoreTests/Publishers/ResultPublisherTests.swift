import ReactiveCore
import Testing

@Suite struct ResultPublisherTests {
  // The declared types are the assertion: each line compiles only if the operator has
  // Combine's specialised return type.
  @Test func resultOperatorsStayResults() {
    let mapped: Result<Int, TestError>.Publisher = Result<Int, TestError>.success(2).publisher.map {
      $0 + 1
    }
    #expect(mapped.result == .success(3))
    let recovered: Result<Int, Never>.Publisher = Result<Int, TestError>.failure(.oops).publisher
      .replaceError(with: 0)
    #expect(recovered.result == .success(0))
    let remapped: Result<Int, TestError>.Publisher = Result<Int, TestError>.failure(.oops).publisher
      .mapError { _ in .other }
    #expect(remapped.result == .failure(.other))
  }

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
  @Test func resultPublisherThrowingComparisonsAskTheClosureOnce() {
    let calls = LockedBox(0)
    let publisher = Result<Int, TestError>.success(5).publisher
    let min: Result<Int, any Error>.Publisher = publisher.tryMin { lhs, rhs in
      calls.withLock { $0 += 1 }
      return lhs < rhs
    }
    #expect((try? min.result.get()) == 5)
    #expect(calls.withLock { $0 } == 1)
    let deduplicated: Result<Int, any Error>.Publisher = publisher.tryRemoveDuplicates { _, _ in
      throw TestError.oops
    }
    #expect(throws: TestError.oops) { try deduplicated.result.get() }
  }
}
