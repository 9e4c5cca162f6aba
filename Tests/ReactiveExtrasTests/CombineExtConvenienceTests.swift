import ReactiveCore
import ReactiveExtras
import Testing

/// CombineExt's small operators, each as its users call it.
@Suite struct CombineExtConvenienceTests {
  struct Oops: Error, Equatable {}

  @Test func mapToValueVoidAndResult() {
    var values: [String] = []
    _ = [1, 2].publisher.mapToValue("x").sink { values.append($0) }
    #expect(values == ["x", "x"])
    var voids = 0
    _ = [1, 2, 3].publisher.mapToVoid().sink { voids += 1 }
    #expect(voids == 3)
    let subject = PassthroughSubject<Int, Oops>()
    var results: [Result<Int, Oops>] = []
    var finished = false
    let cancellable = subject.mapToResult()
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { results.append($0) })
    subject.send(1)
    subject.send(completion: .failure(Oops()))
    #expect(results == [.success(1), .failure(Oops())])
    #expect(finished)
    cancellable.cancel()
  }

  @Test func setOutputTypeAndIgnoreOutputSetOutputType() {
    let typed: AnyPublisher<String, Never> = Empty<Never, Never>().setOutputType(to: String.self)
      .eraseToAnyPublisher()
    var finished = false
    _ = typed.sink(receiveCompletion: { _ in finished = true }, receiveValue: { _ in })
    #expect(finished)
    var values: [String] = []
    var completed = false
    _ = [1, 2].publisher.ignoreOutput(setOutputType: String.self)
      .sink(receiveCompletion: { _ in completed = true }, receiveValue: { values.append($0) })
    #expect(values.isEmpty)
    #expect(completed)
  }

  @Test(arguments: [true, false])
  func ignoreFailure(completeImmediately: Bool) {
    let subject = PassthroughSubject<Int, Oops>()
    var values: [Int] = []
    var finished = false
    let cancellable = subject.ignoreFailure(completeImmediately: completeImmediately)
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0) })
    subject.send(1)
    subject.send(completion: .failure(Oops()))
    #expect(values == [1])
    #expect(finished == completeImmediately)
    cancellable.cancel()
    let retyped: AnyPublisher<Int, Oops> = Fail<Int, Oops>(error: Oops())
      .ignoreFailure(setFailureType: Oops.self)
    var retypedFinished = false
    _ = retyped.sink(
      receiveCompletion: { retypedFinished = $0 == .finished }, receiveValue: { _ in })
    #expect(retypedFinished)
  }

  @Test func toggleFilterNilMapManyFilterMany() {
    var toggled: [Bool] = []
    _ = [true, false].publisher.toggle().sink { toggled.append($0) }
    #expect(toggled == [false, true])
    var unwrapped: [Int] = []
    _ = [1, nil, 2, nil].publisher.filterNil().sink { unwrapped.append($0) }
    #expect(unwrapped == [1, 2])
    var mapped: [[String]] = []
    _ = Just([10, 2]).mapMany(String.init).sink { mapped.append($0) }
    #expect(mapped == [["10", "2"]])
    var filtered: [[Int]] = []
    _ = Just([10, 1, 2, 4, 3, 8]).filterMany { $0.isMultiple(of: 2) }.sink { filtered.append($0) }
    #expect(filtered == [[10, 2, 4, 8]])
  }

  @Test func removeAllDuplicatesPerSubscription() {
    let publisher = [1, 2, 1, 3, 2, 4].publisher.removeAllDuplicates()
    var first: [Int] = []
    var second: [Int] = []
    _ = publisher.sink { first.append($0) }
    _ = publisher.sink { second.append($0) }
    #expect(first == [1, 2, 3, 4])
    #expect(second == [1, 2, 3, 4])  // its own memory, not the first subscription's
    struct Point: Equatable {
      let x: Int
    }
    var points: [Int] = []
    _ = [Point(x: 1), Point(x: 1), Point(x: 2)].publisher.removeAllDuplicates()
      .sink { points.append($0.x) }
    #expect(points == [1, 2])
    var byParity: [Int] = []
    _ = [1, 3, 2, 5, 4].publisher.removeAllDuplicates { $0 % 2 == $1 % 2 }
      .sink { byParity.append($0) }
    #expect(byParity == [1, 2])
  }

  @Test func partitionSharesTheUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var subscriptions = 0
    let counted = subject.handleEvents(receiveSubscription: { _ in subscriptions += 1 })
    let (evens, odds) = counted.partition { $0.isMultiple(of: 2) }
    var seenEvens: [Int] = []
    var seenOdds: [Int] = []
    let a = evens.sink { seenEvens.append($0) }
    let b = odds.sink { seenOdds.append($0) }
    for value in 1...5 { subject.send(value) }
    #expect(seenEvens == [2, 4])
    #expect(seenOdds == [1, 3, 5])
    #expect(subscriptions == 1)
    a.cancel()
    b.cancel()
  }

  @Test func enumeratedCountsPerSubscription() {
    let publisher = ["a", "b"].publisher.enumerated(initial: 1)
    for _ in 0..<2 {
      var pairs: [String] = []
      _ = publisher.sink { pairs.append("\($0.index)\($0.element)") }
      #expect(pairs == ["1a", "2b"])
    }
  }
}
