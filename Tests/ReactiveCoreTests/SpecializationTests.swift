import ReactiveCore
import Testing

/// The declared types are the assertion: each line compiles only if the operator has
/// Combine's specialised return type.
@Suite struct SpecializationTests {
  @Test func justOperatorsStaySimple() {
    let mapped: Just<Int> = Just(1).map { $0 + 1 }
    #expect(mapped.output == 2)
    let filtered: Optional<Int>.Publisher = Just(1).filter { $0 > 1 }
    #expect(filtered.output == nil)
    let tried: Result<Int, any Error>.Publisher = Just(1).tryMap { $0 * 3 }
    #expect((try? tried.result.get()) == 3)
    let collected: Just<[Int]> = Just(1).collect()
    #expect(collected.output == [1])
    let typed: Result<Int, TestError>.Publisher = Just(1).setFailureType(to: TestError.self)
    #expect(typed.result == .success(1))
    let counted: Just<Int> = Just("a").count()
    #expect(counted.output == 1)
    let dropped: Optional<Int>.Publisher = Just(1).dropFirst()
    #expect(dropped.output == nil)
    let reduced: Result<Int, Never>.Publisher = Just(2).reduce(10, +)
    #expect(reduced.result == .success(12))
    let contains: Just<Bool> = Just(2).contains(2)
    #expect(contains.output)
    let ignored: Empty<Int, Never> = Just(1).ignoreOutput()
    #expect(ignored.completeImmediately)
  }

  @Test func optionalOperatorsStayOptional() {
    let mapped: Optional<Int>.Publisher = Optional(2).publisher.map { $0 * 2 }
    #expect(mapped.output == 4)
    // Combine counts no value as no output at all, not as zero.
    let counted: Optional<Int>.Publisher = Optional<Int>.none.publisher.count()
    #expect(counted.output == nil)
    #expect(Optional(3).publisher.count().output == 1)
    #expect(Optional<Int>.none.publisher.allSatisfy { $0 > 0 }.output == nil)
    #expect(Optional<Int>.none.publisher.reduce(2, +).output == nil)
    // Combine answers replaceEmpty on an optional publisher with a `Just`.
    let replaced: Just<Int> = Optional<Int>.none.publisher.replaceEmpty(with: 7)
    #expect(replaced.output == 7)
    let collected: Optional<[Int]>.Publisher = Optional<Int>.none.publisher.collect()
    #expect(collected.output == [])
  }

  /// Combine's quirk, kept: an upper bound this close to `Int.max` traps; one less does not.
  @Test func optionalOutputInRangeTrapsOnAnUpperBoundNearIntMax() async {
    #expect(Optional(12).publisher.output(in: 0..<(.max - 2)) == Optional(12).publisher)
    await #expect(processExitsWith: .failure) {
      _ = Optional(12).publisher.output(in: 0..<(.max - 1))
    }
  }

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

  @Test func sequenceOperatorsStaySequences() {
    let mapped: Publishers.Sequence<[Int], Never> = [1, 2].publisher.map { $0 * 10 }
    #expect(mapped.sequence == [10, 20])
    let filtered: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.filter { $0 != 2 }
    #expect(filtered.sequence == [1, 3])
    let scanned: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)
    #expect(scanned.sequence == [1, 3, 6])
    let deduped: Publishers.Sequence<[Int], Never> = [1, 1, 2, 1].publisher.removeDuplicates()
    #expect(deduped.sequence == [1, 2, 1])
    let counted: Result<Int, Never>.Publisher = [1, 2, 3].publisher.count()
    #expect(counted.result == .success(3))
    let collected: Result<[Int], Never>.Publisher = [1, 2].publisher.collect()
    #expect(collected.result == .success([1, 2]))
    let first: Optional<Int>.Publisher = [4, 5].publisher.first()
    #expect(first.output == 4)
    let maximum: Optional<Int>.Publisher = [4, 9, 5].publisher.max()
    #expect(maximum.output == 9)
    #expect(collectAll([1, 2, 3].publisher.dropFirst()).0 == [2, 3])
    #expect(collectAll([1, 2, 3].publisher.prefix(2)).0 == [1, 2])
  }
}

@Suite struct LogicOperatorTests {
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

  @Test func containsFinishesEarlyAndCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Bool, Never>()
    subject.contains(2).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    #expect(tracker.values == [true])
    #expect(tracker.completions == [.finished])
    subject.send(2)
    #expect(tracker.values == [true])
  }

  @Test func tryAllSatisfyFailsOnThrow() {
    let result = collectAll([1, 2].publisher.tryAllSatisfy { _ in throw TestError.oops })
    #expect(result.0.isEmpty)
    #expect(result.1.count == 1)
  }
}
