import ReactiveCore
import Testing

@Suite struct CountTests {
  @Test func countMinMaxContainsAllSatisfyOnGenericPublishers() {
    let subject = { PassthroughSubject<Int, Never>() }
    func run<P: Publisher>(_ make: (PassthroughSubject<Int, Never>) -> P) -> [P.Output]
    where P.Failure == Never {
      let source = subject()
      var values: [P.Output] = []
      let cancellable = make(source).sink { values.append($0) }
      for value in [3, 1, 4, 1, 5] { source.send(value) }
      source.send(completion: .finished)
      cancellable.cancel()
      return values
    }
    #expect(run { $0.count() } == [5])
    #expect(run { $0.min() } == [1])
    #expect(run { $0.max() } == [5])
    #expect(run { $0.contains(4) } == [true])
    #expect(run { $0.contains(9) } == [false])
    #expect(run { $0.contains { $0 > 4 } } == [true])
    #expect(run { $0.allSatisfy { $0 > 0 } } == [true])
    #expect(run { $0.allSatisfy { $0 > 1 } } == [false])
  }
}
