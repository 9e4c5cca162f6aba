import CombineSchedulers
import Foundation
import ReactiveCore
import Testing

/// A view model as Combine code writes it: a search that waits for typing to pause.
final class SearchModel: @unchecked Sendable {
  let query = PassthroughSubject<String, Never>()
  private(set) var searches: [String] = []
  private var cancellable: AnyCancellable?

  init<S: Scheduler>(scheduler: S) {
    cancellable =
      query
      .debounce(for: .milliseconds(300), scheduler: scheduler)
      .removeDuplicates()
      .sink { [unowned self] in self.searches.append($0) }
  }
}

/// combine-schedulers' and ReactiveCore's test schedulers in one file. Both modules
/// declare a `TestScheduler`, so a bare `TestScheduler` is ambiguous here; the
/// spellings below are the ones that are not: combine-schedulers' own
/// `DispatchQueue.test` and `TestSchedulerOf<…>`, and `ReactiveCore.TestScheduler`.
@Suite struct SideBySideTests {
  @Test func combineSchedulersTestSchedulerDrivesReactiveCoreOperators() {
    let scheduler = DispatchQueue.test
    let model = SearchModel(scheduler: scheduler)
    model.query.send("r")
    model.query.send("ri")
    scheduler.advance(by: .milliseconds(299))
    #expect(model.searches.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(model.searches == ["ri"])
    model.query.send("rip")
    model.query.send("ri")
    scheduler.advance(by: .seconds(1))
    #expect(model.searches == ["ri"])
  }

  @Test func bothTestSchedulersInOneFile() {
    let theirs: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    let ours = ReactiveCore.TestScheduler()
    var seen: [String] = []
    let a = Just("theirs").delay(for: .seconds(1), scheduler: theirs).sink { seen.append($0) }
    let b = Just("ours").delay(for: .seconds(2), scheduler: ours).sink { seen.append($0) }
    ours.advance(by: .seconds(2))
    #expect(seen == ["ours"])
    theirs.advance(by: .seconds(1))
    #expect(seen == ["ours", "theirs"])
    _ = (a, b)
  }

  @Test func combineSchedulersErasedAndImmediateSchedulersWork() {
    let erased: AnySchedulerOf<DispatchQueue> = DispatchQueue.immediate.eraseToAnyScheduler()
    var seen: [Int] = []
    let cancellable = [1, 2, 3].publisher.receive(on: erased).sink { seen.append($0) }
    #expect(seen == [1, 2, 3])
    _ = cancellable
  }

  @Test func combineSchedulersTimerPublisherOnItsTestScheduler() {
    let scheduler = DispatchQueue.test
    var ticks = 0
    let cancellable = scheduler.timerPublisher(every: .seconds(1)).autoconnect().sink { _ in
      ticks += 1
    }
    scheduler.advance(by: .seconds(3))
    #expect(ticks == 3)
    _ = cancellable
  }
}
