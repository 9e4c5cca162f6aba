import ReactiveCore
import Testing

@Suite struct CombineLatestTests {
  @Test func combineLatestEmitsOnceEachHasAValue() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    var seen: [String] = []
    let cancellable = a.combineLatest(b).sink { seen.append("\($0)\($1)") }
    a.send(1)
    b.send("x")
    a.send(2)
    b.send("y")
    #expect(seen == ["1x", "2x", "2y"])
    cancellable.cancel()
  }

  @Test func combineLatestWithTransformAndThreeAndFour() {
    #expect(collectAll(Just(1).combineLatest(Just(2)) { $0 + $1 }).0 == [3])
    #expect(collectAll(Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }).0 == [6])
    let product = Just(1).combineLatest(Just(2), Just(3), Just(4)) { (a: Int, b, c, d) in
      a * b * c * d
    }
    #expect(collectAll(product).0 == [24])
  }

  // The retain cycles LeakSanitizer found in library code (`.ci/asan`), each held weakly
  // here: a completion or a cancel releases everything.
  //
  // A side that finishes without a value does not end combineLatest early: Combine waits
  // for every upstream (the OpenCombine fork's suite, which its authors run against Apple's
  // Combine, records it: testImmediateFinishWhenOneChildFinishesWithNoSurplus,
  // testAValueAfterAChildFinishedWithoutSurplus). An earlier version of this test expected
  // the early finish.
  @Test func aSideFinishingWithoutAValueWaitsForTheOthersThenReleasesEverything() {
    weak var weakCombineLatest: AnyObject?
    do {
      let numbers = PassthroughSubject<Int, Never>()
      let letters = PassthroughSubject<String, Never>()
      let tracker = TrackingSubscriber<String, Never>()
      numbers.combineLatest(letters) { "\($0)\($1)" }.subscribe(tracker)
      weakCombineLatest = tracker.subscription as AnyObject?
      #expect(weakCombineLatest != nil)
      letters.send("x")
      numbers.send(completion: .finished)
      #expect(tracker.completions.isEmpty)
      letters.send("y")
      #expect(tracker.values.isEmpty)
      letters.send(completion: .finished)
      #expect(tracker.completions == [.finished])
    }
    #expect(weakCombineLatest == nil)
  }

  @Test func aCancelCancelsEveryUpstreamAndReleasesEverything() {
    weak var weakCombineLatest: AnyObject?
    let cancelled = LockedBox(0)
    do {
      let numbers = PassthroughSubject<Int, Never>()
      let letters = PassthroughSubject<String, Never>()
      let tracker = TrackingSubscriber<String, Never>()
      numbers.handleEvents(receiveCancel: { cancelled.withLock { $0 += 1 } })
        .combineLatest(letters.handleEvents(receiveCancel: { cancelled.withLock { $0 += 1 } })) {
          "\($0)\($1)"
        }
        .subscribe(tracker)
      weakCombineLatest = tracker.subscription as AnyObject?
      numbers.send(1)
      tracker.subscription?.cancel()
      #expect(cancelled.withLock { $0 } == 2)
    }
    #expect(weakCombineLatest == nil)
  }
}
