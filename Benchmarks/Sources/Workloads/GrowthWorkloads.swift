import Ripple

/// How cost grows (issue 30 item 4, issue 32 item 6): Ripple's cost per item at three
/// sizes of the world around it, which should stay flat.
///
/// Each function measures itself: it builds the world at a size (not timed), then times
/// the work until a time budget (in nanoseconds) is spent, and returns nanoseconds per
/// item.
public enum GrowthWorkloads {
  /// Nanoseconds `body` took.
  @inline(never)
  static func time(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let elapsed = clock.measure(body)
    return Double(elapsed.components.seconds) * 1e9
      + Double(elapsed.components.attoseconds) / 1e9
  }

  /// When set, a steady row runs exactly this many operations once, whatever its budget:
  /// for a profiler (`RippleCompare --profile ROW:SIZE N`), where instruction counts at two
  /// values of N give the count per operation.
  nonisolated(unsafe) public static var fixedOperations: Int?

  /// Nanoseconds per operation of `run(ops)` in a steady world: the count grows until
  /// one run takes `budget`; the earlier runs warm up.
  static func steady(budget: Double, _ run: (Int) -> Void) -> Double {
    if let fixed = fixedOperations { return time { run(fixed) } / Double(fixed) }
    var ops = 16
    while true {
      let elapsed = time { run(ops) }
      if elapsed >= budget || ops >= 1 << 28 { return elapsed / Double(ops) }
      let wanted = Double(ops) * budget / max(elapsed, 1) * 1.1
      ops = Int(min(Double(ops) * 16, max(Double(ops) * 2, wanted)))
    }
  }

  /// Nanoseconds per item of trials that each rebuild their world: `trial` returns the
  /// timed nanoseconds and the items it timed; trials repeat until `budget` is spent.
  static func trials(budget: Double, _ trial: () -> (Double, Int)) -> Double {
    var total = 0.0
    var items = 0
    repeat {
      let (elapsed, count) = trial()
      total += elapsed
      items += count
    } while total < budget
    return total / Double(items)
  }

  /// `count` subjects.
  static func subjects(_ count: Int) -> [PassthroughSubject<Int, Never>] {
    (0..<count).map { _ in PassthroughSubject<Int, Never>() }
  }

  // MARK: - Subjects

  /// Subscribe one sink and cancel it while `live` others stay subscribed; per cycle.
  @inline(never)
  public static func subjectSubscribeCancel(live: Int, budget: Double) -> Double {
    let subject = PassthroughSubject<Int, Never>()
    let others = (0..<live).map { _ in subject.sink { blackHole &+= $0 } }
    let perCycle = steady(budget: budget) { ops in
      for _ in 0..<ops { subject.sink { blackHole &+= $0 }.cancel() }
    }
    subject.send(completion: .finished)
    withExtendedLifetime(others) {}
    return perCycle
  }

  /// Cancel every one of `count` sinks on one subject, newest first; per cancel.
  @inline(never)
  public static func subjectCancelAll(count: Int, budget: Double) -> Double {
    trials(budget: budget) {
      let subject = PassthroughSubject<Int, Never>()
      let sinks = (0..<count).map { _ in subject.sink { blackHole &+= $0 } }
      let elapsed = time {
        for sink in sinks.reversed() { sink.cancel() }
      }
      return (elapsed, count)
    }
  }

  /// One value sent to a subject with `subscribers` sinks; per delivery.
  @inline(never)
  public static func subjectDelivery(subscribers: Int, budget: Double) -> Double {
    let subject = PassthroughSubject<Int, Never>()
    let sinks = (0..<subscribers).map { _ in subject.sink { blackHole &+= $0 } }
    let perSend = steady(budget: budget) { ops in
      for i in 0..<ops { subject.send(i) }
    }
    subject.send(completion: .finished)
    withExtendedLifetime(sinks) {}
    return perSend / Double(subscribers)
  }

  // MARK: - Many upstreams

  /// A value into the first of `upstreams` subjects merged by `Publishers.MergeMany`.
  @inline(never)
  public static func mergeMany(upstreams: Int, budget: Double) -> Double {
    let inputs = subjects(upstreams)
    let cancellable = Publishers.MergeMany(inputs).sink { blackHole &+= $0 }
    let perValue = steady(budget: budget) { ops in
      for i in 0..<ops { inputs[0].send(i) }
    }
    cancellable.cancel()
    return perValue
  }

  /// A value into the first of `upstreams` subjects merged by `Collection.merge()` as an
  /// `AnyPublisher` (ReactiveExtras, CombineExt's spelling).
  @inline(never)
  public static func collectionMerge(upstreams: Int, budget: Double) -> Double {
    let inputs = subjects(upstreams)
    let merged: AnyPublisher<Int, Never> = inputs.merge()
    let cancellable = merged.sink { blackHole &+= $0 }
    let perValue = steady(budget: budget) { ops in
      for i in 0..<ops { inputs[0].send(i) }
    }
    cancellable.cancel()
    return perValue
  }

  /// A value into the first of `upstreams` subjects under `Collection.combineLatest()`,
  /// every upstream having sent one value first; per value (each builds an array of
  /// `upstreams` values, as it must).
  @inline(never)
  public static func collectionCombineLatest(upstreams: Int, budget: Double) -> Double {
    let inputs = subjects(upstreams)
    let cancellable = inputs.combineLatest().sink { blackHole &+= $0[0] }
    for input in inputs { input.send(0) }
    let perValue = steady(budget: budget) { ops in
      for i in 0..<ops { inputs[0].send(i) }
    }
    cancellable.cancel()
    return perValue
  }

  /// `Collection.zip()` over `upstreams` subjects: a value into each upstream in turn,
  /// the last completing one array; per upstream value.
  @inline(never)
  public static func collectionZip(upstreams: Int, budget: Double) -> Double {
    let inputs = subjects(upstreams)
    let cancellable = inputs.zip().sink { blackHole &+= $0[0] }
    let perRound = steady(budget: budget) { ops in
      for i in 0..<ops {
        for input in inputs { input.send(i) }
      }
    }
    cancellable.cancel()
    return perRound / Double(upstreams)
  }

  /// The limit for `combineLatest()`: replace one element of an array of `upstreams`
  /// values and copy the array out (a `memcpy`), per value.
  @inline(never)
  public static func arrayCopy(upstreams: Int, budget: Double) -> Double {
    var latest = [Int](repeating: 0, count: upstreams)
    return steady(budget: budget) { ops in
      for i in 0..<ops {
        latest[0] = i
        let copy = [Int](unsafeUninitializedCapacity: upstreams) { buffer, count in
          latest.withUnsafeBufferPointer { source in
            buffer.baseAddress!.initialize(from: source.baseAddress!, count: upstreams)
          }
          count = upstreams
        }
        blackHole &+= copy[0]
      }
    }
  }

  /// The limit for `zip()`, per upstream value: the same array copy once per round of
  /// `upstreams` values, plus a store of each value.
  @inline(never)
  public static func arrayCopyPerUpstream(upstreams: Int, budget: Double) -> Double {
    arrayCopy(upstreams: upstreams, budget: budget) / Double(upstreams)
  }

  // MARK: - flatMap

  /// A value into the first of `inners` live inner subjects under `flatMap`; per value.
  @inline(never)
  public static func flatMapInners(inners: Int, budget: Double) -> Double {
    let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inputs = subjects(inners)
    let cancellable = outer.flatMap { $0 }.sink { blackHole &+= $0 }
    for input in inputs { outer.send(input) }
    let perValue = steady(budget: budget) { ops in
      for i in 0..<ops { inputs[0].send(i) }
    }
    cancellable.cancel()
    return perValue
  }

  // MARK: - Store

  /// `count` keys named `key.0` … .
  static func storeKeys(_ count: Int) -> [StoreKey<Int>] {
    (0..<count).map { StoreKey<Int>("key.\($0)") }
  }

  /// `Store.stage` of one key, with one observer, in an in-memory store holding `keys`
  /// keys; per stage.
  @inline(never)
  public static func storeStage(keys: Int, budget: Double) -> Double {
    let store = Store()
    let names = storeKeys(keys)
    try? store.batch { batch in
      for key in names { batch.stage(0, for: key) }
    }
    let receipt = store.registerObserver(for: names[0]) { blackHole &+= $0.newValue }
    var next = 1
    let perStage = steady(budget: budget) { ops in
      for _ in 0..<ops {
        store.stage(next, for: names[0])
        next &+= 1
      }
    }
    withExtendedLifetime(receipt) {}
    return perStage
  }

  /// One change and `flush()` on a store persisting `keys` keys to the file at `path`;
  /// per change (the file is opened, filled and flushed first, not timed).
  @inline(never)
  public static func storePersistedFlush(keys: Int, path: String, budget: Double) -> Double {
    guard let store = try? Store(persistence: .file(path: path, changeCheckInterval: nil))
    else { return .nan }
    let names = storeKeys(keys)
    try? store.batch { batch in
      for key in names { batch.stage(0, for: key) }
    }
    try? store.flush()
    var next = 1
    let perChange = trials(budget: budget) {
      let elapsed = time {
        store.stage(next, for: names[0])
        try? store.flush()
      }
      next &+= 1
      return (elapsed, 1)
    }
    try? store.close()
    return perChange
  }
}
