// Cross-cutting: random chains of every operator checked against a model.

import ModelTesting
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An operator and what it does to a finite list of values that then finishes.
private struct ModelOperator: Sendable {
  let name: String
  let apply: @Sendable (AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never>
  let model: @Sendable ([Int]) -> [Int]
  /// `false` for the operator Combine itself lets exceed downstream demand:
  /// `replaceEmpty` passes every value on as it comes.
  var honoursDemand = true
}

/// Turns a value that cannot exist into any type (for `ignoreOutput`'s `Never`).
private func absurd(_ never: Never) -> Int {}

/// A subscriber that asks for random demand and checks Combine's contract as it goes:
/// never more values than asked for, at most one completion, nothing after a cancel.
private final class ContractSubscriber: Subscriber, @unchecked Sendable {
  typealias Input = Int
  typealias Failure = Never

  var values: [Int] = []
  var completions = 0
  var requested = Subscribers.Demand.none
  var violations: [String] = []
  var subscription: (any Subscription)?
  var isCancelled = false
  var perValue: () -> Subscribers.Demand = { .none }

  func receive(subscription: any Subscription) { self.subscription = subscription }

  func receive(_ input: Int) -> Subscribers.Demand {
    if isCancelled { violations.append("value \(input) after cancel") }
    if completions > 0 { violations.append("value \(input) after completion") }
    values.append(input)
    if requested != .unlimited, requested.max.map({ values.count > $0 }) ?? false {
      violations.append("value \(values.count) exceeds demand \(requested)")
    }
    let more = perValue()
    requested += more
    return more
  }

  func receive(completion: Subscribers.Completion<Never>) {
    if isCancelled { violations.append("completion after cancel") }
    completions += 1
    if completions > 1 { violations.append("a second completion") }
    // Let go of the subscription, as `Sink` does: it keeps this subscriber, and holding
    // it on would be a cycle.
    subscription = nil
  }

  func request(_ demand: Subscribers.Demand) {
    requested += demand
    subscription?.request(demand)
  }

  func cancel() {
    isCancelled = true
    subscription?.cancel()
    subscription = nil
  }
}

/// Random operator chains, driven by random demand and cancels, against a list model:
/// demand never exceeded, one completion, nothing after a cancel, and — when it runs to
/// the end — exactly the model's output (issue 20, part 1 for ReactiveCore).
@Suite struct OperatorModelTests {
  fileprivate static let operators: [ModelOperator] = [
    .init(
      name: "map", apply: { $0.map { $0 &* 3 &+ 1 }.eraseToAnyPublisher() },
      model: { $0.map { $0 &* 3 &+ 1 } }),
    .init(
      name: "filter", apply: { $0.filter { $0.isMultiple(of: 2) }.eraseToAnyPublisher() },
      model: { $0.filter { $0.isMultiple(of: 2) } }),
    .init(
      name: "compactMap",
      apply: { $0.compactMap { $0 % 3 == 0 ? nil : $0 / 2 }.eraseToAnyPublisher() },
      model: { $0.compactMap { $0 % 3 == 0 ? nil : $0 / 2 } }),
    .init(
      name: "dropFirst(2)", apply: { $0.dropFirst(2).eraseToAnyPublisher() },
      model: { Array($0.dropFirst(2)) }),
    .init(
      name: "prefix(4)", apply: { $0.prefix(4).eraseToAnyPublisher() },
      model: { Array($0.prefix(4)) }),
    .init(
      name: "removeDuplicates", apply: { $0.removeDuplicates().eraseToAnyPublisher() },
      model: { values in
        values.enumerated().filter { $0.offset == 0 || values[$0.offset - 1] != $0.element }.map(
          \.element)
      }),
    .init(
      name: "scan", apply: { $0.scan(0, &+).eraseToAnyPublisher() },
      model: { values in
        var total = 0
        return values.map {
          total &+= $0
          return total
        }
      }),
    .init(
      name: "drop(while:)", apply: { $0.drop(while: { $0 < 5 }).eraseToAnyPublisher() },
      model: { Array($0.drop(while: { $0 < 5 })) }),
    .init(
      name: "prefix(while:)", apply: { $0.prefix(while: { $0 < 7 }).eraseToAnyPublisher() },
      model: { Array($0.prefix(while: { $0 < 7 })) }),
    .init(
      name: "first", apply: { $0.first().eraseToAnyPublisher() },
      model: { $0.first.map { [$0] } ?? [] }),
    .init(
      name: "last", apply: { $0.last().eraseToAnyPublisher() },
      model: { $0.last.map { [$0] } ?? [] }),
    .init(name: "count", apply: { $0.count().eraseToAnyPublisher() }, model: { [$0.count] }),
    .init(
      name: "reduce", apply: { $0.reduce(1, &+).eraseToAnyPublisher() },
      model: { [$0.reduce(1, &+)] }),
    .init(
      name: "max", apply: { $0.max().eraseToAnyPublisher() }, model: { $0.max().map { [$0] } ?? [] }
    ),
    .init(
      name: "min", apply: { $0.min().eraseToAnyPublisher() }, model: { $0.min().map { [$0] } ?? [] }
    ),
    .init(
      name: "output(at: 1)", apply: { $0.output(at: 1).eraseToAnyPublisher() },
      model: { $0.count > 1 ? [$0[1]] : [] }),
    .init(
      name: "output(in: 1..<4)", apply: { $0.output(in: 1..<4).eraseToAnyPublisher() },
      model: { Array($0.dropFirst(1).prefix(3)) }),
    .init(
      name: "ignoreOutput", apply: { $0.ignoreOutput().map(absurd).eraseToAnyPublisher() },
      model: { _ in [] }),
    .init(
      name: "replaceEmpty", apply: { $0.replaceEmpty(with: 42).eraseToAnyPublisher() },
      model: { $0.isEmpty ? [42] : $0 }, honoursDemand: false),
    .init(
      name: "append", apply: { $0.append(100, 101).eraseToAnyPublisher() },
      model: { $0 + [100, 101] }),
    .init(name: "prepend", apply: { $0.prepend(-1).eraseToAnyPublisher() }, model: { [-1] + $0 }),
    .init(
      name: "collect(2)", apply: { $0.collect(2).map { $0.reduce(0, &+) }.eraseToAnyPublisher() },
      model: { values in
        stride(from: 0, to: values.count, by: 2).map {
          values[$0..<min($0 + 2, values.count)].reduce(0, &+)
        }
      }),
    .init(
      name: "collect", apply: { $0.collect().map(\.count).eraseToAnyPublisher() },
      model: { [$0.count] }),
    .init(
      name: "contains(3)", apply: { $0.contains(3).map { $0 ? 1 : 0 }.eraseToAnyPublisher() },
      model: { [$0.contains(3) ? 1 : 0] }),
    .init(
      name: "allSatisfy",
      apply: { $0.allSatisfy { $0 < 9 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() },
      model: { [$0.allSatisfy { $0 < 9 } ? 1 : 0] }),
    .init(
      name: "buffer",
      apply: {
        $0.buffer(size: 100, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
      }, model: { $0 }),
    .init(
      name: "handleEvents",
      apply: { $0.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher() }, model: { $0 }),
    .init(
      name: "flatMap(Just)", apply: { $0.flatMap { Just($0 &+ 5) }.eraseToAnyPublisher() },
      model: { $0.map { $0 &+ 5 } }),
    .init(
      name: "map(keyPath)", apply: { $0.map(\.bitWidth).eraseToAnyPublisher() },
      model: { $0.map(\.bitWidth) }),
    .init(
      name: "merge(Empty)", apply: { $0.merge(with: Empty()).eraseToAnyPublisher() }, model: { $0 }),
    .init(
      name: "zip(self-sequence)",
      apply: { $0.zip((0..<100).publisher) { $0 &+ $1 }.eraseToAnyPublisher() },
      model: { $0.enumerated().map { $0.element &+ $0.offset } }),
  ]

  /// Runs one chain over `input` with random demand; returns a description of a failure.
  private static func run(
    _ chain: [ModelOperator], input: [Int], random: inout SeededGenerator
  ) -> String? {
    let publisher = chain.reduce(input.publisher.eraseToAnyPublisher()) { $1.apply($0) }
    let expected = chain.reduce(input) { $1.model($0) }
    let subscriber = ContractSubscriber()
    let perValue = (0..<64).map { _ in Int.random(in: 0..<3, using: &random) }
    var next = 0
    subscriber.perValue = {
      defer { next += 1 }
      return .max(perValue[next % perValue.count])
    }
    publisher.subscribe(subscriber)
    let cancelAfter =
      Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 0..<6, using: &random) : nil
    var rounds = 0
    while subscriber.completions == 0, !subscriber.isCancelled, rounds < 1_000 {
      rounds += 1
      if let cancelAfter, subscriber.values.count >= cancelAfter {
        subscriber.cancel()
        break
      }
      subscriber.request(.max(Int.random(in: 1..<4, using: &random)))
    }
    // A chain that neither completed nor was cancelled is cancelled now, so that the
    // subscription and this subscriber go.
    defer { if subscriber.subscription != nil { subscriber.cancel() } }
    let names = chain.map(\.name)
    let checksDemand = chain.allSatisfy(\.honoursDemand)
    let violations = subscriber.violations.filter { checksDemand || !$0.contains("exceeds demand") }
    if let violation = violations.first { return "\(names) on \(input): \(violation)" }
    let got = subscriber.values
    if subscriber.isCancelled {
      if Array(expected.prefix(got.count)) != got {
        return "\(names) on \(input): \(got) is not a prefix of the model's \(expected)"
      }
      return nil
    }
    if subscriber.completions != 1 { return "\(names) on \(input): never completed" }
    if got != expected { return "\(names) on \(input): \(got), the model \(expected)" }
    return nil
  }

  @Test func randomChainsMatchTheModelAndKeepTheContract() {
    let seed = UInt64(
      getenv("RIPPLE_SEED").flatMap { UInt64(String(cString: $0)) }
        ?? UInt64.random(in: 0...UInt64.max))
    let total = getenv("RIPPLE_FUZZ_STEPS").flatMap { Int(String(cString: $0)) } ?? 10_000
    var random = SeededGenerator(state: seed)
    var steps = 0
    while steps < total {
      var chain = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        Self.operators.randomElement(using: &random)!
      }
      // An operator that exceeds demand (as Combine's does) only ends a chain: the
      // operators after it would see values nobody asked for.
      for index in chain.indices.dropLast() where !chain[index].honoursDemand {
        chain[index] = Self.operators[0]
      }
      let input = (0..<Int.random(in: 0..<10, using: &random)).map { _ in
        Int.random(in: 0..<10, using: &random)
      }
      steps += input.count + 1
      if let failure = Self.run(chain, input: input, random: &random) {
        let message = "seed \(seed) (rerun with RIPPLE_SEED=\(seed)): \(failure)"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    print("OperatorModelTests: \(steps) steps, seed \(seed)")
  }
}
