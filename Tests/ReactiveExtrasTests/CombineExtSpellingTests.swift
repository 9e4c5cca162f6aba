import ReactiveCore
import ReactiveExtras
import Testing

/// Declarations CombineExt has that compile only with its exact spelling.
@Suite struct CombineExtSpellingTests {
  final class Target {
    var value = 0
    var text = ""
  }

  /// CombineExt's assign(to:on:and:on:) puts no class constraint on its roots, so generic
  /// code can call it.
  private func bind<Root1, Root2, Root3>(
    _ publisher: PassthroughSubject<Int, Never>,
    _ keyPath1: ReferenceWritableKeyPath<Root1, Int>, _ object1: Root1,
    _ keyPath2: ReferenceWritableKeyPath<Root2, Int>, _ object2: Root2,
    _ keyPath3: ReferenceWritableKeyPath<Root3, Int>, _ object3: Root3
  ) -> [AnyCancellable] {
    [
      publisher.assign(to: keyPath1, on: object1, and: keyPath2, on: object2),
      publisher.assign(
        to: keyPath1, on: object1, and: keyPath2, on: object2, and: keyPath3, on: object3),
    ]
  }

  @Test func assignToManyWithoutOwnership() {
    let subject = PassthroughSubject<Int, Never>()
    let (a, b, c) = (Target(), Target(), Target())
    let cancellables = bind(subject, \.value, a, \.value, b, \.value, c)
    subject.send(3)
    #expect([a.value, b.value, c.value] == [3, 3, 3])
    for cancellable in cancellables { cancellable.cancel() }
    // Called directly on classes, the spelling without `ownership:` still compiles.
    let direct = ["x", "y"].publisher.assign(to: \.text, on: a, and: \.text, on: b)
    #expect(a.text == "y" && b.text == "y")
    direct.cancel()
  }

  /// CombineExt's MergeManyTests store `merge()` as an `AnyPublisher`.
  @Test func mergeIsAnAnyPublisherWhereOneIsExpected() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let erased: AnyPublisher<Int, Never> = [first, second].merge()
    let concrete: Publishers.MergeMany<PassthroughSubject<Int, Never>> = [first, second].merge()
    let erasedRecorder = Recorder<Int, Never>()
    let concreteRecorder = Recorder<Int, Never>()
    erased.subscribe(erasedRecorder)
    concrete.subscribe(concreteRecorder)
    var plain: [Int] = []
    let sink = [first, second].merge().sink { plain.append($0) }
    first.send(1)
    second.send(2)
    #expect(erasedRecorder.values == [1, 2])
    #expect(concreteRecorder.values == [1, 2])
    #expect(plain == [1, 2])
    sink.cancel()
    erasedRecorder.cancel()
    concreteRecorder.cancel()
  }

  @Test func withLatestFromNamesItsResultSelectorType() {
    let selector: Publishers.WithLatestFrom<Just<Int>, Just<Int>, Int>.ResultSelector = { $0 + $1 }
    var values: [Int] = []
    _ = Just(1).withLatestFrom(Just(2), resultSelector: selector).sink { values.append($0) }
    #expect(values == [3])
  }
}
