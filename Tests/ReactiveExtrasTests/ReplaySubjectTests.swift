import Dispatch
import ReactiveCore
import ReactiveExtras
import Synchronization
import Testing

@Suite struct ReplaySubjectTests {
  @Test(arguments: [(0, [Int]()), (1, [3]), (2, [2, 3]), (5, [1, 2, 3])])
  func aNewSubscriberGetsTheLastValues(bufferSize: Int, replayed: [Int]) {
    let subject = ReplaySubject<Int, Never>(bufferSize: bufferSize)
    for value in 1...3 { subject.send(value) }
    let recorder = Recorder<Int, Never>()
    subject.subscribe(recorder)
    subject.send(4)
    #expect(recorder.values == replayed + [4])
  }

  @Test func aLateSubscriberGetsTheReplayThenTheCompletion() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
    [1, 2, 3].forEach(subject.send)
    subject.send(completion: .failure(.oops))
    let recorder = Recorder<Int, TestError>()
    subject.subscribe(recorder)
    #expect(recorder.values == [2, 3])
    #expect(recorder.completions == [.failure(.oops)])
  }

  @Test func theReplayWaitsForDemand() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    [1, 2, 3].forEach(subject.send)
    subject.send(completion: .finished)
    let recorder = Recorder<Int, Never>(initialDemand: .max(1))
    subject.subscribe(recorder)
    #expect(recorder.values == [1])
    #expect(recorder.completions.isEmpty)
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.isFinished)
  }

  @Test func aCancelledSubscriberIsReleased() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 1)
    weak var weakRecorder: Recorder<Int, Never>?
    do {
      let recorder = Recorder<Int, Never>()
      weakRecorder = recorder
      subject.subscribe(recorder)
      recorder.cancel()
    }
    #expect(weakRecorder == nil)
  }

  /// Subscribers joining while another thread sends see every value once, in order:
  /// their replay, then live values, with no gap and no repeat.
  @Test func subscribersJoiningDuringSendsSeeEachValueOnceStress() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 4)
    let recorders = LockedBox<[Recorder<Int, Never>]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      if index == 0 {
        for value in 0..<5_000 { subject.send(value) }
      } else {
        for _ in 0..<100 {
          let recorder = Recorder<Int, Never>()
          subject.subscribe(recorder)
          recorders.withLock { $0.append(recorder) }
        }
      }
    }
    subject.send(completion: .finished)
    for recorder in recorders.withLock({ $0 }) {
      let values = recorder.values
      #expect(values == Array(values.first.map { $0..<5_000 } ?? 0..<0))
    }
  }
}

@Suite struct ShareReplayTests {
  @Test func subscribersShareOneUpstreamAndLateOnesGetTheReplay() {
    let upstream = PassthroughSubject<Int, Never>()
    let subscriptions = Atomic(0)
    let shared = upstream.handleEvents(receiveSubscription: { _ in
      subscriptions.add(1, ordering: .relaxed)
    }).share(replay: 1)
    let first = Recorder<Int, Never>()
    shared.subscribe(first)
    upstream.send(1)
    upstream.send(2)
    let second = Recorder<Int, Never>()
    shared.subscribe(second)
    upstream.send(3)
    #expect(first.values == [1, 2, 3])
    #expect(second.values == [2, 3])
    #expect(subscriptions.load(ordering: .relaxed) == 1)
    first.cancel()
    second.cancel()
  }

  /// CombineExt's `share(replay:)` leaked its subject and subscribers (#85).
  @Test func cancellingEverySubscriberReleasesThemAndTheUpstreamSubscription() {
    let upstream = RecordingSubscription()
    let subject = PassthroughSubject<Int, Never>()
    subject.send(subscription: upstream)
    weak var weakRecorder: Recorder<Int, Never>?
    let shared = subject.share(replay: 2)
    do {
      let recorder = Recorder<Int, Never>()
      weakRecorder = recorder
      shared.subscribe(recorder)
      subject.send(1)
      recorder.cancel()
    }
    #expect(weakRecorder == nil)
  }
}
