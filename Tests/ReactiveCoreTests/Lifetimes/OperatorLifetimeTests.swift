import Foundation
import ReactiveCore
import Testing

private typealias LifetimeUpstream = PassthroughSubject<Int, TestError>

/// How a subscription ends.
enum Ending: String, CaseIterable, Sendable {
  case cancel
  case finish
  case failure
}

extension Publisher {
  /// The row's output as text, its failure as `TestError`, erased: every row of the
  /// table subscribes the same way.
  fileprivate func row() -> AnyPublisher<String, TestError> {
    map { String(describing: $0) }.mapError { _ in TestError.oops }.eraseToAnyPublisher()
  }
}

/// One operator of the lifetime table, built on a `PassthroughSubject`, with `token`
/// captured by every closure it takes.
struct OperatorRow: Sendable, CustomTestStringConvertible {
  let name: String
  let make:
    @Sendable (PassthroughSubject<Int, TestError>, TestScheduler, Token) -> AnyPublisher<
      String, TestError
    >

  var testDescription: String { name }

  init(
    _ name: String,
    _ make:
      @escaping @Sendable (PassthroughSubject<Int, TestError>, TestScheduler, Token) ->
      AnyPublisher<String, TestError>
  ) {
    self.name = name
    self.make = make
  }

  static let all: [OperatorRow] = mapping + filtering + reducing + combining + sharing + timing

  static let mapping: [OperatorRow] = [
    .init("map") { upstream, _, token in
      upstream.map {
        _ = token
        return $0
      }.row()
    },
    .init("tryMap") { upstream, _, token in
      upstream.tryMap {
        _ = token
        return $0
      }.row()
    },
    .init("compactMap") { upstream, _, token in
      upstream.compactMap {
        _ = token
        return $0
      }.row()
    },
    .init("scan") { upstream, _, token in
      upstream.scan(0) {
        _ = token
        return $0 + $1
      }.row()
    },
    .init("tryScan") { upstream, _, token in
      upstream.tryScan(0) {
        _ = token
        return $0 + $1
      }.row()
    },
    .init("mapError") { upstream, _, token in
      upstream.mapError {
        _ = token
        return $0
      }.row()
    },
    .init("replaceNil") { upstream, _, _ in upstream.map { Optional($0) }.replaceNil(with: 0).row()
    },
    .init("handleEvents") { upstream, _, token in
      upstream.handleEvents(receiveOutput: { _ in _ = token }, receiveCancel: { _ = token }).row()
    },
    .init("print") { upstream, _, _ in upstream.print("", to: DiscardingStream()).row() },
    .init("breakpoint") { upstream, _, token in
      upstream.breakpoint(receiveOutput: { _ in
        _ = token
        return false
      }).row()
    },
  ]

  static let filtering: [OperatorRow] = [
    .init("filter") { upstream, _, token in
      upstream.filter { _ in
        _ = token
        return true
      }.row()
    },
    .init("tryFilter") { upstream, _, token in
      upstream.tryFilter { _ in
        _ = token
        return true
      }.row()
    },
    .init("removeDuplicates(by:)") { upstream, _, token in
      upstream.removeDuplicates {
        _ = token
        return $0 == $1
      }.row()
    },
    .init("drop(while:)") { upstream, _, token in
      upstream.drop { _ in
        _ = token
        return false
      }.row()
    },
    .init("prefix(while:)") { upstream, _, token in
      upstream.prefix { _ in
        _ = token
        return true
      }.row()
    },
    .init("dropFirst") { upstream, _, _ in upstream.dropFirst().row() },
    .init("output(in:)") { upstream, _, _ in upstream.output(in: 0..<10).row() },
    .init("prefix(untilOutputFrom:)") { upstream, _, _ in
      upstream.prefix(untilOutputFrom: PassthroughSubject<Int, TestError>()).row()
    },
    .init("drop(untilOutputFrom:)") { upstream, _, _ in
      upstream.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self)).row()
    },
  ]

  static let reducing: [OperatorRow] = [
    .init("reduce") { upstream, _, token in
      upstream.reduce(0) {
        _ = token
        return $0 + $1
      }.row()
    },
    .init("collect") { upstream, _, _ in upstream.collect().row() },
    .init("collect(_:)") { upstream, _, _ in upstream.collect(3).row() },
    .init("first(where:)") { upstream, _, token in
      upstream.first {
        _ = token
        return $0 > 5
      }.row()
    },
    .init("last(where:)") { upstream, _, token in
      upstream.last { _ in
        _ = token
        return true
      }.row()
    },
    .init("contains(where:)") { upstream, _, token in
      upstream.contains {
        _ = token
        return $0 > 5
      }.row()
    },
    .init("allSatisfy") { upstream, _, token in
      upstream.allSatisfy {
        _ = token
        return $0 < 5
      }.row()
    },
    .init("max(by:)") { upstream, _, token in
      upstream.max {
        _ = token
        return $0 < $1
      }.row()
    },
    .init("count") { upstream, _, _ in upstream.count().row() },
    .init("ignoreOutput") { upstream, _, _ in upstream.ignoreOutput().row() },
    .init("replaceEmpty") { upstream, _, _ in upstream.replaceEmpty(with: 0).row() },
  ]

  static let combining: [OperatorRow] = [
    .init("merge(with:)") { upstream, _, _ in
      upstream.merge(with: Just(0).setFailureType(to: TestError.self)).row()
    },
    .init("combineLatest") { upstream, _, token in
      upstream.combineLatest(Just(0).setFailureType(to: TestError.self)) { a, _ in
        _ = token
        return a
      }.row()
    },
    .init("zip") { upstream, _, token in
      upstream.zip(Publishers.Sequence<[Int], TestError>(sequence: [0, 1, 2])) { a, _ in
        _ = token
        return a
      }.row()
    },
    .init("flatMap") { upstream, _, token in
      upstream.flatMap { value -> Just<Int> in
        _ = token
        return Just(value)
      }.row()
    },
    .init("switchToLatest") { upstream, _, token in
      upstream.map { value -> AnyPublisher<Int, TestError> in
        _ = token
        return Just(value).setFailureType(to: TestError.self).eraseToAnyPublisher()
      }.switchToLatest().row()
    },
    .init("prepend") { upstream, _, _ in upstream.prepend(0).row() },
    .init("append") { upstream, _, _ in upstream.append(0).row() },
    .init("catch") { upstream, _, token in
      upstream.catch { _ -> Just<Int> in
        _ = token
        return Just(0)
      }.row()
    },
    .init("tryCatch") { upstream, _, token in
      upstream.tryCatch { _ -> Just<Int> in
        _ = token
        return Just(0)
      }.row()
    },
    .init("replaceError") { upstream, _, _ in upstream.replaceError(with: 0).row() },
    .init("retry") { upstream, _, _ in upstream.retry(1).row() },
    .init("buffer") { upstream, _, _ in
      upstream.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).row()
    },
  ]

  static let sharing: [OperatorRow] = [
    .init("share") { upstream, _, _ in upstream.share().row() },
    .init("multicast + autoconnect") { upstream, _, _ in
      upstream.multicast { PassthroughSubject<Int, TestError>() }.autoconnect().row()
    },
    .init("makeConnectable + autoconnect") { upstream, _, _ in
      upstream.makeConnectable().autoconnect().row()
    },
    .init("eraseToAnyPublisher") { upstream, _, _ in upstream.eraseToAnyPublisher().row() },
  ]

  static let timing: [OperatorRow] = [
    .init("debounce") { upstream, scheduler, _ in
      upstream.debounce(for: .seconds(1), scheduler: scheduler).row()
    },
    .init("throttle") { upstream, scheduler, _ in
      upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).row()
    },
    .init("delay") { upstream, scheduler, _ in
      upstream.delay(for: .seconds(1), scheduler: scheduler).row()
    },
    .init("timeout") { upstream, scheduler, token in
      upstream.timeout(.seconds(5), scheduler: scheduler) {
        _ = token
        return .other
      }.row()
    },
    .init("receive(on:)") { upstream, scheduler, _ in upstream.receive(on: scheduler).row() },
    .init("subscribe(on:)") { upstream, scheduler, _ in upstream.subscribe(on: scheduler).row() },
    .init("collect(.byTime)") { upstream, scheduler, _ in
      upstream.collect(.byTime(scheduler, .seconds(1))).row()
    },
    .init("collect(.byTimeOrCount)") { upstream, scheduler, _ in
      upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).row()
    },
    .init("measureInterval") { upstream, scheduler, _ in
      upstream.measureInterval(using: scheduler).row()
    },
  ]
}

/// A text stream that drops what it is given, for `print`.
struct DiscardingStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

/// The operator rows of the lifetime table (`<doc:Lifetimes>`): while a subscription is
/// live it keeps the subscriber, the operator's closures and the upstream; a cancel, a
/// finish or a failure lets go of all of them. (Combine's subscriptions keep the
/// subscriber until the subscription itself goes; that difference shows only with a
/// subscriber that holds its subscription after the end, see `MergeLifetimeTests`.)
@Suite struct OperatorLifetimeTests {
  @Test(arguments: OperatorRow.all, Ending.allCases)
  func releasesEverythingAtTheEnd(_ row: OperatorRow, _ ending: Ending) {
    let scheduler = TestScheduler()
    weak var weakToken: Token?
    weak var weakSink: Subscribers.Sink<String, TestError>?
    weak var weakUpstream: LifetimeUpstream?
    var upstream: LifetimeUpstream? = LifetimeUpstream()
    weakUpstream = upstream
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      let sink = Subscribers.Sink<String, TestError>(
        receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
      weakSink = sink
      row.make(upstream!, scheduler, token).subscribe(sink)
      cancellable = AnyCancellable(sink)
    }
    upstream?.send(1)
    scheduler.advance(by: .seconds(1))
    switch ending {
    case .cancel: cancellable?.cancel()
    case .finish: upstream?.send(completion: .finished)
    case .failure: upstream?.send(completion: .failure(.oops))
    }
    upstream = nil
    // A completion that a timing operator delivers on the scheduler has to arrive first.
    if ending != .cancel { scheduler.run() }
    #expect(weakToken == nil, "\(row.name): closures kept after \(ending.rawValue)")
    // `subscribe(on:)` cancels its upstream on the scheduler, as Combine's does, and the
    // upstream subject's subscription keeps the subject until that cancel runs.
    if row.name == "subscribe(on:)", ending == .cancel {
      #expect(weakUpstream != nil, "subscribe(on:) cancelled upstream off its scheduler")
      scheduler.run()
    }
    #expect(weakUpstream == nil, "\(row.name): upstream kept after \(ending.rawValue)")
    scheduler.run()
    cancellable = nil
    #expect(weakSink == nil, "\(row.name): subscriber kept after \(ending.rawValue)")
  }

  /// The rows whose subscription keeps its subscriber until the subscription itself
  /// goes, as Combine's do (the OpenCombine fork's `test…Lifecycle` pass
  /// `cancellingSubscriptionReleasesSubscriber: false` for them, and they pass against
  /// Combine): a subscriber that keeps its subscription after the end makes a cycle that
  /// only the subscriber breaks, as `Sink`, `Assign` and `AnyCancellable` do.
  static let keepSubscriberInACycle: Set<String> = [
    "allSatisfy", "append", "breakpoint", "buffer", "catch", "collect", "collect(_:)",
    "contains(where:)", "count", "delay", "drop(untilOutputFrom:)", "drop(while:)",
    "dropFirst", "first(where:)", "flatMap", "handleEvents", "last(where:)", "max(by:)",
    "measureInterval", "output(in:)", "prefix(untilOutputFrom:)", "prefix(while:)",
    "prepend", "print", "receive(on:)", "reduce", "removeDuplicates(by:)", "replaceEmpty",
    "replaceError", "subscribe(on:)", "switchToLatest", "timeout", "tryCatch", "tryFilter",
    "tryMap", "tryScan", "zip",
  ]

  /// With a subscriber that keeps its subscription after the end (a cycle, if the
  /// subscription kept the subscriber): the chain keeps the subscriber while live; after
  /// a cancel, a finish or a failure, Combine's cycle rows keep it, the others let go; and
  /// every row lets go of its closures (DESIGN's no-leak rule), cycle or not.
  @Test(arguments: OperatorRow.all, Ending.allCases)
  func aSubscriberThatKeepsItsSubscription(_ row: OperatorRow, _ ending: Ending) {
    let scheduler = TestScheduler()
    let upstream = LifetimeUpstream()
    weak var weakSubscriber: HoldingSubscriber<String, TestError>?
    weak var weakToken: Token?
    do {
      let subscriber = HoldingSubscriber<String, TestError>()
      weakSubscriber = subscriber
      let token = Token()
      weakToken = token
      row.make(upstream, scheduler, token).subscribe(subscriber)
    }
    upstream.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(weakSubscriber != nil, "\(row.name): subscriber released while live")
    switch ending {
    case .cancel: weakSubscriber?.subscription?.cancel()
    case .finish: upstream.send(completion: .finished)
    case .failure: upstream.send(completion: .failure(.oops))
    }
    scheduler.run()
    // The zip row finishes as soon as its sequence side runs out with an empty queue.
    let keeps =
      Self.keepSubscriberInACycle.contains(row.name) && !(row.name == "zip" && ending == .finish)
      || (row.name == "debounce" && ending == .cancel)
    #expect(
      (weakSubscriber != nil) == keeps,
      "\(row.name): subscriber \(keeps ? "released" : "kept") after \(ending.rawValue)")
    #expect(weakToken == nil, "\(row.name): closures kept after \(ending.rawValue)")
    // The subscriber breaks the cycle by letting go of its subscription.
    weakSubscriber?.releaseSubscription()
    #expect(weakSubscriber == nil)
  }
}
