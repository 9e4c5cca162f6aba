import Dispatch
import Foundation
import Observation
import ReactiveCore
import ReactiveExtras
import Testing

@Observable
final class Model: @unchecked Sendable {
  var title = "a"
  var subtitle = "x"
  var usesSubtitle = false
  var other = 0
}

@Suite struct ObservationsPublisherTests {
  @Test func itSendsTheCurrentValueThenEachChangeOnTheScheduler() {
    let model = Model()
    let scheduler = TestScheduler()
    let recorder = Recorder<String, Never>()
    Publishers.Observations(scheduler: scheduler) { model.title }.subscribe(recorder)
    #expect(recorder.values == ["a"])
    model.title = "b"
    #expect(recorder.values == ["a"])
    scheduler.advance()
    #expect(recorder.values == ["a", "b"])
  }

  @Test func severalChangesBeforeTheSchedulerRunsGiveOneValue() {
    let model = Model()
    let scheduler = TestScheduler()
    let recorder = Recorder<String, Never>()
    Publishers.Observations(scheduler: scheduler) { model.title + model.subtitle }
      .subscribe(recorder)
    model.title = "b"
    model.subtitle = "y"
    model.title = "c"
    scheduler.advance()
    #expect(recorder.values == ["ax", "cy"])
  }

  @Test func aBranchThatStartsReadingAnotherPropertyIsFollowed() {
    let model = Model()
    let scheduler = TestScheduler()
    let recorder = Recorder<String, Never>()
    Publishers.Observations(scheduler: scheduler) {
      model.usesSubtitle ? model.subtitle : model.title
    }.subscribe(recorder)
    model.subtitle = "ignored"
    scheduler.advance()
    #expect(recorder.values == ["a"])
    model.usesSubtitle = true
    scheduler.advance()
    model.subtitle = "z"
    scheduler.advance()
    #expect(recorder.values == ["a", "ignored", "z"])
  }

  @Test func unreadPropertiesDoNotSend() {
    let model = Model()
    let scheduler = TestScheduler()
    let recorder = Recorder<String, Never>()
    Publishers.Observations(scheduler: scheduler) { model.title }.subscribe(recorder)
    model.other += 1
    scheduler.advance()
    #expect(recorder.values == ["a"])
  }

  @Test func withoutDemandOnlyTheLatestValueWaits() {
    let model = Model()
    let scheduler = TestScheduler()
    let recorder = Recorder<String, Never>(initialDemand: .max(1))
    Publishers.Observations(scheduler: scheduler) { model.title }.subscribe(recorder)
    for title in ["b", "c", "d"] {
      model.title = title
      scheduler.advance()
    }
    recorder.request(.max(5))
    #expect(recorder.values == ["a", "d"])
  }

  @Test func cancellingStopsTrackingAndReleasesTheModel() {
    let scheduler = TestScheduler()
    let recorder = Recorder<String, Never>()
    weak var weakModel: Model?
    do {
      let model = Model()
      weakModel = model
      Publishers.Observations(scheduler: scheduler) { model.title }.subscribe(recorder)
      recorder.cancel()
      model.title = "b"
      scheduler.advance()
    }
    #expect(weakModel == nil)
    #expect(recorder.values == ["a"])
  }

  @Test func changesFromOtherThreadsArriveOnTheDefaultQueueStress() async {
    let model = Model()
    let recorder = Recorder<Int, Never>()
    // The model is guarded by a lock the thread sanitizer sees (pthread-based).
    let lock = NSLock()
    Publishers.Observations { lock.withLock { model.other } }.subscribe(recorder)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<250 { lock.withLock { model.other += 1 } }
    }
    for _ in 0..<200 where recorder.values.last != 1_000 {
      try? await Task.sleep(for: .milliseconds(10))
    }
    #expect(recorder.values.last == 1_000)
    #expect(recorder.values == recorder.values.sorted())
    recorder.cancel()
  }
}

@Suite struct ObservableValueTests {
  @Test func itFollowsThePublisherAndObservationSeesIt() {
    let subject = PassthroughSubject<Int, Never>()
    let holder = subject.observableValue(initial: 0)
    let changed = LockedBox(false)
    withObservationTracking {
      _ = holder.value
    } onChange: {
      changed.withLock { $0 = true }
    }
    subject.send(5)
    #expect(holder.value == 5)
    #expect(changed.withLock { $0 })
  }

  @Test func theHolderReleasesItsSubscriptionWhenItGoes() {
    let upstream = RecordingSubscription()
    let subject = PassthroughSubject<Int, Never>()
    subject.send(subscription: upstream)
    weak var weakHolder: ObservableValue<Int>?
    do {
      let holder = ObservableValue(subject, initial: 0)
      weakHolder = holder
    }
    #expect(weakHolder == nil)
  }
}

@Suite struct ObservableObjectObservationTests {
  final class Settings: ObservableObject {
    @Published var volume = 5
  }

  @Test func objectWillChangeReachesObservationTracking() {
    let settings = ObservableObjectObservation(Settings())
    let changes = LockedBox(0)
    withObservationTracking {
      _ = settings.object.volume
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    settings.object.volume = 6
    #expect(changes.withLock { $0 } == 1)
    #expect(settings.object.volume == 6)
  }
}
