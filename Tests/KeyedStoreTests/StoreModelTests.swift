import Foundation
import KeyedStore
import Testing

/// A seeded generator (SplitMix64), so that a failing run can be replayed from its seed.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One random step on the store.
private enum StoreStep: CustomStringConvertible {
  case stage(key: Int, value: Int)
  case stageForced(key: Int, value: Int)
  case batch([(key: Int, value: Int)])
  case post(key: Int)
  case register(key: Int)
  case retire(observer: Int)
  case reopen

  var description: String {
    switch self {
    case .stage(let key, let value): "stage(\(value), k\(key))"
    case .stageForced(let key, let value): "stageForced(\(value), k\(key))"
    case .batch(let pairs): "batch(\(pairs.map { "k\($0.key)=\($0.value)" }))"
    case .post(let key): "post(k\(key))"
    case .register(let key): "register(k\(key))"
    case .retire(let observer): "retire(#\(observer))"
    case .reopen: "reopen"
    }
  }
}

/// Random stage / forced stage / batch / post / register / retire on a persisting store,
/// against a dictionary, after every step: every read equals the model, every observer
/// saw exactly the model's mutations of its key since it registered, in order; and a
/// second store opened on the file at random points reads the model's committed state.
@Suite struct StoreModelTests {
  static let keys = (0..<4).map { StoreKey<Int>("k\($0)") }

  /// Runs `steps` on a fresh file; returns a description of the first mismatch.
  private static func run(_ steps: [StoreStep]) -> String? {
    let folder = TemporaryFolder()
    guard let store = try? openStore(folder.file()) else { return "the store did not open" }
    var model: [Int: Int] = [:]
    /// Each observer: its key, what it saw, what the model says it should have seen.
    final class Observer: @unchecked Sendable {
      let key: Int
      var seen: [String] = []
      var expected: [String] = []
      var receipt: ObserverReceipt?
      init(key: Int) { self.key = key }
    }
    var observers: [Observer] = []
    func expect(_ key: Int, _ old: Int?, _ new: Int) {
      for observer in observers where observer.key == key && observer.receipt != nil {
        observer.expected.append("\(old.map(String.init) ?? "nil")→\(new)")
      }
    }
    defer {
      for observer in observers { observer.receipt.map(store.retireObserver) }
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
      case .register(let key):
        let observer = Observer(key: key)
        observer.receipt = store.registerObserver(for: keys[key]) { [observer] mutation in
          observer.seen.append(
            "\(mutation.oldValue.map(String.init) ?? "nil")→\(mutation.newValue)")
        }
        observers.append(observer)
      case .retire(let index):
        guard observers.indices.contains(index), let receipt = observers[index].receipt else {
          continue
        }
        store.retireObserver(receipt)
        observers[index].receipt = nil
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
    while done < total {
      var registered = 0
      let steps: [StoreStep] = (0..<200).map { _ in
        let key = Int.random(in: 0..<Self.keys.count, using: &random)
        let value = Int.random(in: 0..<4, using: &random)
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<8: return .stage(key: key, value: value)
        case 8..<10: return .stageForced(key: key, value: value)
        case 10..<12:
          let keys = Array((0..<Self.keys.count).shuffled(using: &random).prefix(2))
          return .batch(keys.map { ($0, Int.random(in: 0..<4, using: &random)) })
        case 12..<14: return .post(key: key)
        case 14..<17:
          registered += 1
          return .register(key: key)
        case 17..<19:
          return .retire(observer: Int.random(in: 0..<max(registered, 1), using: &random))
        default: return .reopen
        }
      }
      done += steps.count
      if let failure = Self.run(steps) {
        let message =
          "seed \(seed) (rerun with RIPPLE_SEED=\(seed)): \(failure); minimal steps "
          + "\(Self.shrink(steps))"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    print("StoreModelTests: \(done) steps, seed \(seed)")
  }
}
