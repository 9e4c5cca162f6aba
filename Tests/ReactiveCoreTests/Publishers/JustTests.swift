import ReactiveCore
import Testing

@Suite struct JustTests {
  @Test func justWaitsForDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
    Just(5).subscribe(tracker)
    #expect(tracker.values.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [5])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Just"))
  }

  // The declared types are the assertion: each line compiles only if the operator has
  // Combine's specialised return type.
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

  // The concrete types Combine's specialised overloads return, so Combine code that names
  // them (or reads `.result`, `.upstream`) compiles and behaves the same.
  @Test func throwingOperatorsOnJustAnswerWithAResultPublisher() {
    let contains: Result<Bool, any Error>.Publisher = Just(1).tryContains { $0 == 1 }
    #expect((try? contains.result.get()) == true)
    let failing: Result<Bool, any Error>.Publisher = Just(1).tryAllSatisfy { _ in
      throw TestError.oops
    }
    #expect(throws: TestError.oops) { try failing.result.get() }
    let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2).append(4)
    #expect(prepended.sequence == [1, 2, 3, 4])
  }
}
