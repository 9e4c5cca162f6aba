import Foundation
import KeyedStore
import ModelTesting
import ReactiveCore
import Testing

/// How an observer is attached to the store.
private enum ObserverKind: String, CaseIterable {
  /// `registerObserver(for:)`: runs on the committing thread; `retireObserver` stops it.
  case direct
  /// `registerObserver(for:on: testScheduler)`: each mutation is scheduled at "now" and
  /// delivered on the next `advance`; retiring stops what is committed afterwards, while
  /// mutations committed before it (already scheduled) are still delivered, as
  /// `retireObserver` documents.
  case scheduled
  /// `publisher(for:).receive(on: testScheduler).sink`: like `scheduled`, but cancelling
  /// drops what is still scheduled too, as Combine's `receive(on:)` does.
  case receiveOn
}

/// One random step on the store.
private enum StoreStep: CustomStringConvertible {
  case stage(key: Int, value: Int)
  case stageForced(key: Int, value: Int)
  case batch([(key: Int, value: Int)])
  case post(key: Int)
  case register(key: Int, kind: ObserverKind)
  case retire(observer: Int)
  case reopen
  /// `stage(_:for:after:)` on the store's `TestScheduler`.
  case stageAfter(key: Int, value: Int, milliseconds: Int)
  /// Cancels the n-th delayed stage (nothing if it already ran).
  case cancelPending(index: Int)
  /// `TestScheduler.advance(by:)`.
  case advance(milliseconds: Int)

  var description: String {
    switch self {
    case .stage(let key, let value): "stage(\(value), k\(key))"
    case .stageForced(let key, let value): "stageForced(\(value), k\(key))"
    case .batch(let pairs): "batch(\(pairs.map { "k\($0.key)=\($0.value)" }))"
    case .post(let key): "post(k\(key))"
    case .register(let key, let kind): "register(k\(key), \(kind))"
    case .retire(let observer): "retire(#\(observer))"
    case .reopen: "reopen"
    case .stageAfter(let key, let value, let milliseconds):
      "stage(\(value), k\(key), after: \(milliseconds)ms)"
    case .cancelPending(let index): "cancelPending(#\(index))"
    case .advance(let milliseconds): "advance(\(milliseconds)ms)"
    }
  }
}

/// Random stage / forced stage / batch / post / register / retire on a persisting store,
/// against a dictionary, after every step: every read equals the model, every observer
/// saw exactly the model's mutations of its key since it registered, in order; and a
/// second store opened on the file at random points reads the model's committed state.
///
/// The store runs on a `TestScheduler`: delayed stages (`stage(_:for:after:)`) wait in the
/// model's own queue until a random `advance(by:)` reaches them, then run in (due time,
/// submission) order with the usual redundancy rule; a cancelled one never runs. Observers
/// are direct, delivered on the scheduler, or a `receive(on:)` subscription; the model
/// knows which mutations each has seen at every step (a scheduled delivery waits for the
/// next advance), and that a retired or cancelled one sees nothing committed afterwards.
@Suite struct StoreModelTests {
  static let keys = (0..<4).map { StoreKey<Int>("k\($0)") }

  /// Runs `steps` on a fresh file; returns a description of the first mismatch.
  private static func run(_ steps: [StoreStep]) -> String? {
    let folder = TemporaryFolder()
    let scheduler = TestScheduler()
    let store: Store
    do {
      store = try Store(
        scheduler: scheduler,
        persistence: .file(path: folder.file(), changeCheckInterval: nil))
    } catch { return "the store did not open: \(error)" }
    var model: [Int: Int] = [:]
    /// Each observer: its key, what it saw, what the model says it should have seen, and
    /// what the model says is scheduled for it but not yet delivered.
    final class Observer: @unchecked Sendable {
      let key: Int
      let kind: ObserverKind
      var seen: [String] = []
      var expected: [String] = []
      var scheduled: [String] = []
      var isLive = true
      var receipt: ObserverReceipt?
      var cancellable: AnyCancellable?
      init(key: Int, kind: ObserverKind) {
        self.key = key
        self.kind = kind
      }
    }
    var observers: [Observer] = []
    func expect(_ key: Int, _ old: Int?, _ new: Int) {
      for observer in observers where observer.key == key && observer.isLive {
        let mutation = "\(old.map(String.init) ?? "nil")→\(new)"
        if observer.kind == .direct {
          observer.expected.append(mutation)
        } else {
          observer.scheduled.append(mutation)
        }
      }
    }
    /// The model's delayed stages: due time (virtual nanoseconds), key, value, and whether
    /// cancelled; `pending` holds the library's cancellables, which must stay alive.
    var clock = 0
    var delayed: [(due: Int, key: Int, value: Int, isCancelled: Bool)] = []
    var ran: Set<Int> = []
    var pending: [AnyCancellable] = []
    defer {
      for observer in observers {
        observer.receipt.map(store.retireObserver)
        observer.cancellable?.cancel()
      }
      for cancellable in pending { cancellable.cancel() }
      // Work still queued on the virtual clock holds the store and the subscriptions,
      // and the store holds the clock: run it, so that the run leaves nothing behind.
      scheduler.run()
    }
    for (number, step) in steps.enumerated() {
      switch step {
      case .stage(let key, let value):
        let outcome = store.stage(value, for: keys[key])
        if model[key] == value {
          if outcome != .discardedAsRedundant { return "step \(number) \(step): \(outcome)" }
        } else {
          expect(key, model[key], value)
          model[key] = value
        }
      case .stageForced(let key, let value):
        store.stage(value, for: keys[key], discardingRedundancy: false)
        expect(key, model[key], value)
        model[key] = value
      case .batch(let pairs):
        do {
          try store.batch { batch in
            for pair in pairs { batch.stage(pair.value, for: keys[pair.key]) }
          }
        } catch { return "step \(number) \(step): \(error)" }
        for pair in pairs {
          expect(pair.key, model[pair.key], pair.value)
          model[pair.key] = pair.value
        }
      case .post(let key):
        store.post(keys[key])
        if let value = model[key] { expect(key, value, value) }
      case .register(let key, let kind):
        let observer = Observer(key: key, kind: kind)
        let record = { [observer] (mutation: Mutation<Int>) in
          observer.seen.append(
            "\(mutation.oldValue.map(String.init) ?? "nil")→\(mutation.newValue)")
        }
        switch kind {
        case .direct: observer.receipt = store.registerObserver(for: keys[key], record)
        case .scheduled:
          observer.receipt = store.registerObserver(for: keys[key], on: scheduler, record)
        case .receiveOn:
          observer.cancellable = store.publisher(for: keys[key]).receive(on: scheduler)
            .sink(receiveValue: record)
        }
        observers.append(observer)
      case .retire(let index):
        guard observers.indices.contains(index), observers[index].isLive else { continue }
        let observer = observers[index]
        observer.isLive = false
        if let receipt = observer.receipt { store.retireObserver(receipt) }
        observer.cancellable?.cancel()
        // A cancelled `receive(on:)` drops what it had scheduled; a retired observer
        // still gets what was committed (and scheduled) before it was retired.
        if observer.kind == .receiveOn { observer.scheduled = [] }
      case .stageAfter(let key, let value, let milliseconds):
        pending.append(store.stage(value, for: keys[key], after: .milliseconds(milliseconds)))
        delayed.append((clock + milliseconds * 1_000_000, key, value, false))
      case .cancelPending(let index):
        guard pending.indices.contains(index) else { continue }
        pending[index].cancel()
        delayed[index].isCancelled = true
      case .advance(let milliseconds):
        let limit = clock + milliseconds * 1_000_000
        scheduler.advance(by: SchedulerStride(nanoseconds: milliseconds * 1_000_000))
        // Due delayed stages in (due time, submission) order; each stages as `stage` does.
        let due = delayed.indices.filter { delayed[$0].due <= limit && !ran.contains($0) }
          .sorted { (delayed[$0].due, $0) < (delayed[$1].due, $1) }
        for index in due {
          ran.insert(index)
          let stage = delayed[index]
          guard !stage.isCancelled, model[stage.key] != stage.value else { continue }
          expect(stage.key, model[stage.key], stage.value)
          model[stage.key] = stage.value
        }
        clock = limit
        // Every scheduled delivery is due by now, including those of the stages that ran.
        for observer in observers {
          observer.expected += observer.scheduled
          observer.scheduled = []
        }
        if scheduler.now != SchedulerInstant(clock) {
          return "step \(number) \(step): the scheduler reads \(scheduler.now), the model \(clock)"
        }
        // Cancelled stages may linger in the scheduler's queue until due, but every live
        // one must be there.
        let waiting = delayed.indices.filter { !ran.contains($0) }
        let live = waiting.filter { !delayed[$0].isCancelled }
        if !(live.count...waiting.count).contains(scheduler.pendingCount) {
          return
            "step \(number) \(step): \(scheduler.pendingCount) pieces of work wait, the model "
            + "\(live.count) live delayed stages of \(waiting.count)"
        }
      case .reopen:
        do {
          try store.flush()
          let reopened = try openStore(folder.file())
          for key in 0..<keys.count where reopened.value(for: keys[key]) != model[key] {
            return
              "step \(number) \(step): k\(key) reopened as \(String(describing: reopened.value(for: keys[key]))), the model \(String(describing: model[key]))"
          }
          try reopened.close()
        } catch { return "step \(number) \(step): \(error)" }
      }
      for key in 0..<keys.count where store.value(for: keys[key]) != model[key] {
        return
          "step \(number) \(step): k\(key) reads \(String(describing: store.value(for: keys[key]))), the model \(String(describing: model[key]))"
      }
      for (index, observer) in observers.enumerated() where observer.seen != observer.expected {
        return
          "step \(number) \(step): observer #\(index) of k\(observer.key) saw \(observer.seen), the model \(observer.expected)"
      }
    }
    return nil
  }

  /// Removes steps one at a time while the run still fails: a minimal failing sequence.
  private static func shrink(_ steps: [StoreStep]) -> [StoreStep] {
    var steps = steps
    var index = 0
    while index < steps.count {
      var candidate = steps
      candidate.remove(at: index)
      if run(candidate) != nil { steps = candidate } else { index += 1 }
    }
    return steps
  }

  @Test func randomHistoriesMatchTheModel() {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["RIPPLE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    let total = environment["RIPPLE_FUZZ_STEPS"].flatMap(Int.init) ?? 10_000
    var random = SeededGenerator(state: seed)
    var done = 0
    var scheduled = (delays: 0, cancels: 0, advances: 0)
    while done < total {
      var registered = 0
      var delays = 0
      let steps: [StoreStep] = (0..<200).map { _ in
        let key = Int.random(in: 0..<Self.keys.count, using: &random)
        let value = Int.random(in: 0..<4, using: &random)
        switch Int.random(in: 0..<29, using: &random) {
        case 0..<8: return .stage(key: key, value: value)
        case 8..<10: return .stageForced(key: key, value: value)
        case 10..<12:
          let keys = Array((0..<Self.keys.count).shuffled(using: &random).prefix(2))
          return .batch(keys.map { ($0, Int.random(in: 0..<4, using: &random)) })
        case 12..<14: return .post(key: key)
        case 14..<17:
          registered += 1
          return .register(key: key, kind: ObserverKind.allCases.randomElement(using: &random)!)
        case 17..<19:
          return .retire(observer: Int.random(in: 0..<max(registered, 1), using: &random))
        case 19: return .reopen
        case 20..<24:
          delays += 1
          return .stageAfter(
            key: key, value: value,
            milliseconds: [0, 250, 500, 1_000, 2_000].randomElement(using: &random)!)
        case 24..<26:
          return .cancelPending(index: Int.random(in: 0..<max(delays, 1), using: &random))
        default:
          return .advance(milliseconds: [0, 250, 500, 1_000].randomElement(using: &random)!)
        }
      }
      done += steps.count
      for step in steps {
        switch step {
        case .stageAfter: scheduled.delays += 1
        case .cancelPending: scheduled.cancels += 1
        case .advance: scheduled.advances += 1
        default: break
        }
      }
      if let failure = Self.run(steps) {
        let message =
          "seed \(seed) (rerun with RIPPLE_SEED=\(seed)): \(failure); minimal steps "
          + "\(Self.shrink(steps))"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    print(
      "StoreModelTests: \(done) steps (\(scheduled.delays) delayed stages, \(scheduled.cancels) "
        + "cancels, \(scheduled.advances) advances), seed \(seed)")
  }
}
