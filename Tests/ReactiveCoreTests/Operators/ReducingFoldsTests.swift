import ReactiveCore
import Testing

/// The reducing operators whose non-throwing and `try` forms share one fold
/// (`ReducingSubscription+Folds.swift`): each form gives its answer under Combine's
/// subscription name, and a throw fails the `try` form and cancels upstream once.
@Suite struct ReducingFoldsTests {
  /// How a run over the values 1 to 4 ended.
  struct Run: Equatable {
    /// The values published downstream.
    var values: [Int] = []
    /// Whether the publisher failed.
    var failed = false
    /// The subscription's description, as downstream saw it.
    var subscription = ""
    /// How many times upstream was cancelled.
    var cancels = 0
  }

  /// Sends 1 to 4 and a finish through `makeOperator`, recording what came out.
  private static func run<Failure: Error>(
    _ makeOperator: (AnyPublisher<Int, Never>) -> AnyPublisher<Int, Failure>
  ) -> Run {
    let subject = PassthroughSubject<Int, Never>()
    var run = Run()
    let upstream = subject.handleEvents(receiveCancel: { run.cancels += 1 })
    let cancellable = makeOperator(upstream.eraseToAnyPublisher())
      .handleEvents(receiveSubscription: { run.subscription = String(describing: $0) })
      .sink(
        receiveCompletion: { if case .failure = $0 { run.failed = true } },
        receiveValue: { run.values.append($0) })
    for value in 1...4 { subject.send(value) }
    subject.send(completion: .finished)
    cancellable.cancel()
    return run
  }

  @Test func firstAndLastPickTheirValue() {
    let first = Self.run { $0.first().eraseToAnyPublisher() }
    #expect(first.values == [1] && first.subscription == "First" && first.cancels == 1)
    // Combine names the subscription of the non-throwing `first(where:)` "TryFirst".
    let firstWhere = Self.run { $0.first { $0 > 2 }.eraseToAnyPublisher() }
    #expect(firstWhere.values == [3] && firstWhere.subscription == "TryFirst")
    let last = Self.run { $0.last().eraseToAnyPublisher() }
    #expect(last.values == [4] && last.subscription == "Last" && last.cancels == 0)
    let lastWhere = Self.run { $0.last { $0 < 3 }.eraseToAnyPublisher() }
    #expect(lastWhere.values == [2] && lastWhere.subscription == "LastWhere")
  }

  @Test func comparisonAndReduceFoldEveryValue() {
    #expect(Self.run { $0.max().eraseToAnyPublisher() }.values == [4])
    #expect(Self.run { $0.min().eraseToAnyPublisher() }.values == [1])
    let reduced = Self.run { $0.reduce(10, +).eraseToAnyPublisher() }
    #expect(reduced.values == [20] && reduced.subscription == "Reduce")
  }

  @Test func aThrowFailsTheTryFormAndCancelsUpstreamOnce() {
    let runs = [
      Self.run { $0.tryFirst { _ in throw TestError.oops }.eraseToAnyPublisher() },
      Self.run { $0.tryLast { _ in throw TestError.oops }.eraseToAnyPublisher() },
      Self.run { $0.tryMax { _, _ in throw TestError.oops }.eraseToAnyPublisher() },
      Self.run { $0.tryReduce(0) { _, _ in throw TestError.oops }.eraseToAnyPublisher() },
      Self.run {
        $0.tryContains { _ in throw TestError.oops }.map { $0 ? 1 : 0 }
          .eraseToAnyPublisher()
      },
    ]
    for run in runs {
      #expect(run.failed && run.values.isEmpty && run.cancels == 1)
    }
  }

  @Test func verdictsFlipAtTheFirstDifferentValue() {
    var answers: [Bool] = []
    _ = [1, 2, 3].publisher.contains(2).sink { answers.append($0) }
    _ = [1, 2, 3].publisher.contains { $0 > 5 }.sink { answers.append($0) }
    _ = [1, 2, 3].publisher.allSatisfy { $0 > 0 }.sink { answers.append($0) }
    _ = [1, 2, 3].publisher.allSatisfy { $0 < 2 }.sink { answers.append($0) }
    #expect(answers == [true, false, true, false])
  }
}
