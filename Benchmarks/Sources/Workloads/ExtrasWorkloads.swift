import Observation
import Ripple

/// ReactiveExtras' workloads and their hand-written baselines (there is no OpenCombine
/// column: OpenCombine has no CombineExt).
public enum ExtrasWorkloads {
  /// One upstream shared through `share(replay: 1)` with 100 subscribers; per delivery.
  public static func shareReplayFanout(_ n: Int) {
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share(replay: 1)
    let cancellables = (0..<100).map { _ in shared.sink { blackHole &+= $0 } }
    for i in 0..<(n / 100) { upstream.send(i) }
    for cancellable in cancellables { cancellable.cancel() }
  }

  /// The same by hand: keep the last value, call 100 closures.
  public static func shareReplayFanoutBaseline(_ n: Int) {
    let sinks = (0..<100).map { _ in Baselines.sink }
    var last = 0
    for i in 0..<(n / 100) {
      last = i
      for sink in sinks { sink(i) }
    }
    blackHole &+= last
  }

  /// `withLatestFrom` with the other side set once; per upstream value.
  public static func withLatestFrom(_ n: Int) {
    let upstream = PassthroughSubject<Int, Never>()
    let other = CurrentValueSubject<Int, Never>(1)
    let cancellable = upstream.withLatestFrom(other) { $0 &+ $1 }.sink { blackHole &+= $0 }
    for i in 0..<n { upstream.send(i) }
    cancellable.cancel()
  }

  /// The same by hand: a stored latest value joined into each call.
  public static func withLatestFromBaseline(_ n: Int) {
    let latest = blackHole | 1
    let sink = Baselines.sink
    for i in 0..<n { sink(i &+ latest) }
  }

  @Observable
  final class Model: @unchecked Sendable {
    var count = 0
  }

  /// An `@Observable` property change reaching a `Publishers.Observations` subscriber
  /// through a `TestScheduler`; per change.
  public static func observationPublisher(_ n: Int) {
    let model = Model()
    let scheduler = TestScheduler()
    let cancellable = Publishers.Observations(scheduler: scheduler) { model.count }
      .sink { blackHole &+= $0 }
    for i in 0..<n {
      model.count = i
      scheduler.advance()
    }
    cancellable.cancel()
  }

  /// What it is compared with: a `CurrentValueSubject` send to one sink.
  public static func currentValueSend(_ n: Int) {
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { blackHole &+= $0 }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
  }
}
