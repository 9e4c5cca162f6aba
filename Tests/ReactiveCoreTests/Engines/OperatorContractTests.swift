// Cross-cutting: one table of every operator, checked against the subscriber contract.

import ReactiveCore
import Testing

/// One table, every operator: demand is never exceeded, exactly one completion and
/// nothing after it, and cancelling reaches the upstream.
@Suite struct OperatorContractTests {
  typealias Make = @Sendable (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>

  static let operators: [(String, Make)] = [
    ("map", { $0.map { $0 + 1 }.eraseToAnyPublisher() }),
    ("tryMap", { $0.tryMap { $0 }.replaceError(with: -1).eraseToAnyPublisher() }),
    ("compactMap", { $0.compactMap { $0 }.eraseToAnyPublisher() }),
    ("filter", { $0.filter { _ in true }.eraseToAnyPublisher() }),
    ("scan", { $0.scan(0, +).eraseToAnyPublisher() }),
    ("removeDuplicates", { $0.removeDuplicates().eraseToAnyPublisher() }),
    ("dropFirst", { $0.dropFirst(0).eraseToAnyPublisher() }),
    ("drop(while:)", { $0.drop { _ in false }.eraseToAnyPublisher() }),
    ("prefix(while:)", { $0.prefix { _ in true }.eraseToAnyPublisher() }),
    ("prefix", { $0.prefix(1_000).eraseToAnyPublisher() }),
    ("handleEvents", { $0.handleEvents().eraseToAnyPublisher() }),
    ("collect(2)", { $0.collect(2).map(\.count).eraseToAnyPublisher() }),
    (
      "buffer",
      { $0.buffer(size: 100, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher() }
    ),
    ("share", { $0.share().eraseToAnyPublisher() }),
    ("autoconnect", { $0.makeConnectable().autoconnect().eraseToAnyPublisher() }),
    ("merge", { $0.merge(with: Empty()).eraseToAnyPublisher() }),
    ("combineLatest", { $0.combineLatest(Just(1)) { $0 + $1 }.eraseToAnyPublisher() }),
    ("zip", { $0.zip((0..<1_000).publisher) { $0 + $1 }.eraseToAnyPublisher() }),
    ("flatMap", { $0.flatMap { Just($0) }.eraseToAnyPublisher() }),
    ("switchToLatest", { $0.map { Just($0) }.switchToLatest().eraseToAnyPublisher() }),
    ("append", { $0.append(Empty()).eraseToAnyPublisher() }),
    ("prepend", { $0.prepend([Int]()).eraseToAnyPublisher() }),
    ("receive(on:)", { $0.receive(on: ImmediateScheduler.shared).eraseToAnyPublisher() }),
    ("subscribe(on:)", { $0.subscribe(on: ImmediateScheduler.shared).eraseToAnyPublisher() }),
    ("replaceEmpty", { $0.replaceEmpty(with: 0).eraseToAnyPublisher() }),
    (
      "catch",
      { $0.setFailureType(to: TestError.self).catch { _ in Just(0) }.eraseToAnyPublisher() }
    ),
    (
      "retry",
      { $0.setFailureType(to: TestError.self).retry(1).replaceError(with: 0).eraseToAnyPublisher() }
    ),
    ("print", { $0.print("", to: NullStream()).eraseToAnyPublisher() }),
    ("drop(untilOutputFrom:)", { $0.drop(untilOutputFrom: Just(())).eraseToAnyPublisher() }),
    (
      "prefix(untilOutputFrom:)",
      { $0.prefix(untilOutputFrom: Empty<Void, Never>()).eraseToAnyPublisher() }
    ),
  ]

  static var names: [String] { operators.map(\.0) }

  static func make(_ name: String) -> Make { operators.first { $0.0 == name }!.1 }

  /// The operators that keep to downstream's demand: all but `replaceEmpty(with:)`, which,
  /// as in Combine, asks upstream for `.unlimited` once subscribed and passes on whatever
  /// upstream sends (see `PassThroughCombineTests`).
  static var demandKeepingNames: [String] { names.filter { $0 != "replaceEmpty" } }

  @Test(arguments: demandKeepingNames)
  func demandIsNeverExceeded(name: String) {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    Self.make(name)(subject).subscribe(tracker)
    for value in 0..<10 { subject.send(value) }
    #expect(
      tracker.values.count <= 1, "\(name) delivered \(tracker.values.count) for a demand of 1")
    tracker.request(.max(2))
    for value in 10..<20 { subject.send(value) }
    #expect(
      tracker.values.count <= 3, "\(name) delivered \(tracker.values.count) for a demand of 3")
    #expect(!tracker.values.isEmpty, "\(name) delivered nothing")
  }

  @Test(arguments: names)
  func exactlyOneCompletionAndNothingAfter(name: String) {
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    Self.make(name)(subject).subscribe(tracker)
    subject.send(1)
    subject.send(completion: .finished)
    let delivered = tracker.values.count
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.completions == [.finished], "\(name)")
    #expect(tracker.values.count == delivered, "\(name) delivered after completion")
    if case .completion = tracker.events.last {
    } else {
      Issue.record("\(name): an event after completion")
    }
  }

  @Test(arguments: names)
  func cancellingReachesUpstreamAndReleasesTheSubscriber(name: String) {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    do {
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      Self.make(name)(PassthroughSubject<Int, Never>()).subscribe(TrackingSubscriber<Int, Never>())
      Self.make(name)(subject).handleEvents(receiveCancel: { cancelled = true }).subscribe(tracker)
      subject.send(1)
      tracker.cancel()
    }
    subject.send(2)
    #expect(cancelled, "\(name)")
    #expect(weakTracker == nil, "\(name) kept its subscriber after cancel")
  }
}

/// A text stream that discards everything.
struct NullStream: TextOutputStream {
  mutating func write(_ string: String) {}
}
