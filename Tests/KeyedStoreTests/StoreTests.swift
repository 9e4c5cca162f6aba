import KeyedStore
import ReactiveCore
import Testing

@Suite struct StageAndExpressTests {
  @Test func stageThenExpress() async {
    let store = Store()
    #expect(store.value(for: .someBool) == nil)
    #expect(store.stage(true, for: .someBool) == .committed)
    #expect(store.value(for: .someBool) == true)
    #expect(store[.someBool] == true)
    #expect(await store.express(.someBool) == true)
  }

  @Test func redundantValuesAreDroppedUnlessAsked() {
    let store = Store()
    let seen = Recorder<Int>()
    store.registerObserver(for: .someInt) { seen.append($0.newValue) }
    store.stage(27, for: .someInt)
    #expect(store.stage(27, for: .someInt) == .discardedAsRedundant)
    #expect(store.stage(27, for: .someInt, discardingRedundancy: false) == .committed)
    #expect(seen.values == [27, 27])
  }

  @Test func mutationCarriesOldNewAndTimestamp() {
    let store = Store()
    let seen = Recorder<Mutation<Int>>()
    store.registerObserver(for: .someInt) { seen.append($0) }
    let before = ContinuousClock.now
    store.stage(1, for: .someInt)
    store.stage(2, for: .someInt)
    #expect(seen.values.map(\.oldValue) == [nil, 1])
    #expect(seen.values.map(\.newValue) == [1, 2])
    #expect(seen.values.allSatisfy { $0.timestamp >= before && $0.key == .someInt })
  }

  // Stage reads the clock itself (not through `ContinuousClock.now`): its timestamps must
  // still be `ContinuousClock` instants, ordered with `now` and with the other commits'.
  @Test func timestampsAreContinuousClockInstantsInCommitOrder() {
    let store = Store()
    let seen = Recorder<Mutation<Int>>()
    store.registerObserver(for: .someInt) { seen.append($0) }
    let before = ContinuousClock.now
    store.stage(1, for: .someInt)
    store.post(.someInt)
    store.stage(2, for: .someInt)
    store.update(0, for: .someInt) { $0 += 1 }
    let after = ContinuousClock.now
    let timestamps = seen.values.map(\.timestamp)
    #expect(timestamps.count == 4)
    #expect(timestamps.allSatisfy { before <= $0 && $0 <= after })
    #expect(timestamps == timestamps.sorted())
  }

  @Test func delayedStageRunsOnTheSchedulerAndCanBeCancelled() {
    let scheduler = TestScheduler()
    let store = Store(scheduler: scheduler)
    let pending = store.stage(false, for: .someBool, after: .seconds(12))
    let cancelled = store.stage(7, for: .someInt, after: .seconds(1))
    cancelled.cancel()
    scheduler.advance(by: .seconds(11))
    #expect(store.value(for: .someBool) == nil)
    scheduler.advance(by: .seconds(1))
    #expect(store.value(for: .someBool) == false)
    #expect(store.value(for: .someInt) == nil)
    _ = pending
  }

  @Test func untypedBatchChecksEveryTypeFirst() throws {
    let store = Store()
    try store.stage([AnyStoreKey(.someBool): true, AnyStoreKey(.someInt): 72])
    #expect(store.value(for: .someInt) == 72)
    #expect(throws: StoreError.typeMismatch(key: "someString", expected: "String", actual: "Int")) {
      try store.stage([AnyStoreKey(.someBool): false, AnyStoreKey(.someString): 5])
    }
    #expect(store.value(for: .someBool) == true)
    #expect(store.value(for: .someString) == nil)
  }

  @Test func aNameUsedWithTwoTypesIsRejected() {
    let store = Store()
    store.stage(1, for: .someInt)
    let outcome = store.stage("oops", for: .clashing)
    #expect(outcome == .rejected(.typeMismatch(key: "someInt", expected: "Int", actual: "String")))
    #expect(store.value(for: .someInt) == 1)
    if case .rejected(let error) = outcome {
      #expect(error.description.contains("nothing was staged"))
    }
  }

  @Test func observingBindsTheNameToItsTypeLikeStaging() {
    let store = Store()
    var heard: [String] = []
    store.registerObserver(for: .clashing) { heard.append($0.newValue) }
    let outcome = store.stage(1, for: .someInt)
    #expect(outcome == .rejected(.typeMismatch(key: "someInt", expected: "String", actual: "Int")))
    #expect(store.value(for: .someInt) == nil)
    store.stage("a", for: .clashing)
    #expect(heard == ["a"])
  }

  @Test func typedBatchNotifiesAfterTheWholeBatch() throws {
    let store = Store()
    let seen = Recorder<String>()
    store.registerObserver(for: .someBool) { _ in
      seen.append("bool sees int=\(store.value(for: .someInt) ?? -1)")
    }
    try store.batch { batch in
      batch.stage(true, for: .someBool)
      batch.stage(9, for: .someInt)
    }
    #expect(seen.values == ["bool sees int=9"])
  }

  @Test func batchReadIsASnapshot() {
    let store = Store()
    store.stage(true, for: .someBool)
    store.stage(3, for: .someInt)
    let values = store.values(for: [
      AnyStoreKey(.someBool), AnyStoreKey(.someInt), AnyStoreKey(.someString),
    ])
    #expect(values[AnyStoreKey(.someBool)] as? Bool == true)
    #expect(values[AnyStoreKey(.someInt)] as? Int == 3)
    #expect(values[AnyStoreKey(.someString)] == nil)
  }

  @Test func postNotifiesWithoutChanging() {
    let store = Store()
    let seen = Recorder<Mutation<Int>>()
    store.post(.someInt)  // no value yet: nothing to post
    store.stage(5, for: .someInt)
    store.registerObserver(for: .someInt) { seen.append($0) }
    store.post(.someInt)
    #expect(seen.values.map(\.newValue) == [5])
    #expect(seen.values.map(\.oldValue) == [5])
  }

  @Test func updateIsAtomicReadModifyWrite() {
    let store = Store()
    store.update(false, for: .someBool) { $0.toggle() }
    #expect(store.value(for: .someBool) == true)
    store.update(false, for: .someBool) { $0.toggle() }
    #expect(store.value(for: .someBool) == false)
  }
}

@Suite struct ObserverTests {
  @Test func retiredObserverReceivesNothingAndIsReleased() {
    let store = Store()
    weak var weakToken: TokenObject?
    let seen = Recorder<Int>()
    let receipt: ObserverReceipt
    do {
      let token = TokenObject()
      weakToken = token
      receipt = store.registerObserver(for: .someInt) {
        _ = token
        seen.append($0.newValue)
      }
    }
    store.stage(1, for: .someInt)
    store.retireObserver(receipt)
    store.stage(2, for: .someInt)
    #expect(seen.values == [1])
    #expect(weakToken == nil)
  }

  @Test func batchRegistrationAndRetireAll() {
    let store = Store()
    let seen = Recorder<String>()
    let receipts = store.registerObserver(for: [AnyStoreKey(.someString), AnyStoreKey(.someInt)]) {
      seen.append($0.key.name)
    }
    store.stage("a", for: .someString)
    store.stage(1, for: .someInt)
    receipts.retireAll()
    store.stage("b", for: .someString)
    #expect(seen.values == ["someString", "someInt"])
    #expect(Array(receipts).count == 2)
  }

  @Test func observersMayStageReadRegisterAndRetireReentrantly() {
    let store = Store()
    let seen = Recorder<String>()
    let inner = LockedBox<ObserverReceipt?>(nil)
    store.registerObserver(for: .someInt) { mutation in
      seen.append("int \(mutation.newValue)")
      if mutation.newValue < 3 { store.stage(mutation.newValue + 1, for: .someInt) }
      _ = store.value(for: .someInt)
      if mutation.newValue == 1 {
        inner.withLock {
          $0 = store.registerObserver(for: .someBool) { seen.append("bool \($0.newValue)") }
        }
      }
      if mutation.newValue == 3, let receipt = inner.withLock({ $0 }) {
        store.retireObserver(receipt)
      }
    }
    store.stage(1, for: .someInt)
    store.stage(true, for: .someBool)
    #expect(seen.values == ["int 1", "int 2", "int 3"])
    store.stage(9, for: .someInt)
    #expect(store.value(for: .someInt) == 9)
  }

  @Test func publisherOfMutations() {
    let store = Store()
    var values: [Int] = []
    let cancellable = store.publisher(for: .someInt).map(\.newValue).sink { values.append($0) }
    store.stage(1, for: .someInt)
    cancellable.cancel()
    store.stage(2, for: .someInt)
    #expect(values == [1])
  }

  @Test func asyncSequenceOfMutations() async {
    let store = Store()
    let stream = store.mutations(for: .someInt)
    store.stage(1, for: .someInt)
    store.stage(2, for: .someInt)
    var received: [Int] = []
    for await mutation in stream {
      received.append(mutation.newValue)
      if received.count == 2 { break }
    }
    #expect(received == [1, 2])
  }

  @Test func deliveryOnAScheduler() {
    let scheduler = TestScheduler()
    let store = Store()
    let seen = Recorder<Int>()
    store.registerObserver(for: .someInt, on: scheduler) { seen.append($0.newValue) }
    store.stage(4, for: .someInt)
    #expect(seen.values.isEmpty)
    scheduler.advance()
    #expect(seen.values == [4])
  }

  @Test func seedKeyCentricSpellingOnTheSharedStore() {
    let seen = Recorder<Bool>()
    let receipt = StoreKey<Bool>("sharedFlag").registerObserver { seen.append($0.newValue) }
    StoreKey<Bool>("sharedFlag").stageValue(true)
    var expressed: Bool?
    StoreKey<Bool>("sharedFlag").expressValue { expressed = $0 }
    StoreKey<Bool>("sharedFlag").retireObserver(receipt)
    StoreKey<Bool>("sharedFlag").stageValue(false)
    #expect(expressed == true)
    #expect(seen.values == [true])
  }
}

@Suite struct PlainClosureObserverTests {
  @Test func observersNeedNotBeSendable() {
    let store = Store()
    var seen: [Int] = []
    let receipt = store.registerObserver(for: .someInt) { seen.append($0.newValue) }
    store.stage(1, for: .someInt)
    store.stage(2, for: .someInt)
    store.retireObserver(receipt)
    store.stage(3, for: .someInt)
    #expect(seen == [1, 2])
    var names: [String] = []
    let receipts = store.registerObserver(for: [AnyStoreKey(.someBool)]) {
      names.append($0.key.name)
    }
    store.stage(true, for: .someBool)
    receipts.retireAll()
    #expect(names == ["someBool"])
  }
}

@Suite struct SharedSpellingPlainClosureTests {
  @Test func keyCentricObserversNeedNotBeSendable() {
    var seen: [Int] = []
    let key = StoreKey<Int>("plainClosureShared")
    let receipt = key.registerObserver { seen.append($0.newValue) }
    key.stageValue(5)
    key.retireObserver(receipt)
    #expect(seen == [5])
  }
}
