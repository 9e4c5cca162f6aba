import Dispatch
import ReactiveCore
import Synchronization
import Testing

/// `sink` on a `PassthroughSubject` or `CurrentValueSubject` is served by the subject's
/// conduit alone, with no `Subscribers.Sink`. What a sink promises must still hold: the
/// closures, and what they captured, are let go on cancel, on completion and when the
/// cancellable is dropped, never while a delivery is calling them; a subject that had
/// completed delivers its completion; a current value comes first. Each test runs the
/// specialised path (the subject's type known where `sink` is called) and the generic
/// one (`sink` called on `some Publisher`, where the subject is recognised at run time).
@Suite struct SubjectSinkTests {
  final class Token: @unchecked Sendable {}

  enum Path: CaseIterable, CustomStringConvertible {
    case specialised, generic
    var description: String { self == .specialised ? "specialised" : "generic" }
  }

  /// `sink(receiveValue:)` through the chosen path.
  static func sink<P: Publisher>(
    _ publisher: P, _ path: Path, _ receiveValue: @escaping (P.Output) -> Void
  ) -> AnyCancellable where P.Failure == Never {
    switch path {
    case .specialised: publisher.sink(receiveValue: receiveValue)
    case .generic: genericSink(publisher, receiveValue)
    }
  }

  @inline(never)
  static func genericSink<P: Publisher>(
    _ publisher: P, _ receiveValue: @escaping (P.Output) -> Void
  ) -> AnyCancellable where P.Failure == Never {
    publisher.sink(receiveValue: receiveValue)
  }

  @Test(arguments: Path.allCases)
  func cancellingLetsGoOfTheClosures(path: Path) {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = Self.sink(subject, path) { value in
        withExtendedLifetime(token) { received.append(value) }
      }
    }
    subject.send(1)
    #expect(weakToken != nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
    subject.send(2)
    #expect(received == [1])
    _ = cancellable
  }

  @Test(arguments: Path.allCases)
  func droppingTheCancellableCancels(path: Path) {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = Self.sink(subject, path) { value in
        withExtendedLifetime(token) { received.append(value) }
      }
    }
    subject.send(1)
    cancellable = nil
    #expect(weakToken == nil)
    subject.send(2)
    #expect(received == [1])
    _ = cancellable
  }

  /// Cancelled from inside its own closure: the closure finishes, and is let go when it
  /// returns, not before; no later value arrives.
  @Test(arguments: Path.allCases)
  func cancellingFromInsideTheClosureLetsGoWhenItReturns(path: Path) {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    weak var weakToken: Token?
    var aliveAfterCancel: Bool?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = Self.sink(subject, path) { value in
        received.append(value)
        cancellable?.cancel()
        aliveAfterCancel = weakToken != nil
        withExtendedLifetime(token) {}
      }
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
    #expect(aliveAfterCancel == true)
    #expect(weakToken == nil)
    _ = cancellable
  }

  @Test(arguments: Path.allCases)
  func completionIsDeliveredThenTheClosuresAreLetGo(path: Path) {
    let subject = PassthroughSubject<Int, Never>()
    var events: [String] = []
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      let receiveValue: (Int) -> Void = { value in
        withExtendedLifetime(token) { events.append("\(value)") }
      }
      let receiveCompletion: (Subscribers.Completion<Never>) -> Void = { _ in
        withExtendedLifetime(token) { events.append("finished") }
      }
      cancellable =
        path == .specialised
        ? subject.sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        : Self.genericSink(subject, receiveValue, receiveCompletion)
    }
    subject.send(1)
    subject.send(completion: .finished)
    subject.send(2)
    #expect(events == ["1", "finished"])
    #expect(weakToken == nil)
    cancellable?.cancel()
    _ = cancellable
  }

  @inline(never)
  static func genericSink<P: Publisher>(
    _ publisher: P, _ receiveValue: @escaping (P.Output) -> Void,
    _ receiveCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void
  ) -> AnyCancellable {
    publisher.sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
  }

  /// A sink on a subject that has completed gets the completion at once, keeps nothing,
  /// and its cancellable does nothing.
  @Test(arguments: Path.allCases)
  func aSinkOnACompletedSubjectGetsTheCompletionAndKeepsNothing(path: Path) {
    let subject = CurrentValueSubject<Int, TestError>(7)
    subject.send(completion: .failure(TestError()))
    var events: [String] = []
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      let receiveValue: (Int) -> Void = { value in
        withExtendedLifetime(token) { events.append("\(value)") }
      }
      let receiveCompletion: (Subscribers.Completion<TestError>) -> Void = { completion in
        withExtendedLifetime(token) {
          if case .failure = completion { events.append("failed") }
        }
      }
      cancellable =
        path == .specialised
        ? subject.sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        : Self.genericSink(subject, receiveValue, receiveCompletion)
    }
    #expect(events == ["failed"])
    #expect(weakToken == nil)
    cancellable?.cancel()
    cancellable?.cancel()
    #expect(events == ["failed"])
  }

  struct TestError: Error {}

  @Test(arguments: Path.allCases)
  func aCurrentValueComesFirstThenEachSend(path: Path) {
    let subject = CurrentValueSubject<Int, Never>(0)
    var received: [Int] = []
    let cancellable = Self.sink(subject, path) { received.append($0) }
    subject.send(1)
    subject.value = 2
    #expect(received == [0, 1, 2])
    cancellable.cancel()
    subject.send(3)
    #expect(received == [0, 1, 2])
  }

  /// A value sent from inside the closure is delivered after the one in progress
  /// returns, as to any subscriber of a subject.
  @Test(arguments: Path.allCases)
  func aSendFromInsideTheClosureIsDelivered(path: Path) {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = Self.sink(subject, path) { value in
      received.append(value)
      if value == 1 { subject.send(2) }
    }
    subject.send(1)
    #expect(received == [1, 2])
    cancellable.cancel()
  }

  /// Another thread cancels while a delivery is calling the closure: the delivery
  /// finishes, the closure is let go once it returns, and nothing more arrives.
  @Test(arguments: Path.allCases)
  func aCancelFromAnotherThreadWaitsForTheDeliveryToReturn(path: Path) {
    let subject = PassthroughSubject<Int, Never>()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let received = Mutex<[Int]>([])
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = Self.sink(subject, path) { value in
        withExtendedLifetime(token) {
          received.withLock { $0.append(value) }
          if value == 1 {
            entered.signal()
            proceed.wait()
          }
        }
      }
    }
    let sender = DispatchGroup()
    DispatchQueue.global().async(group: sender) { subject.send(1) }
    entered.wait()
    let taken = cancellable
    cancellable = nil
    taken?.cancel()
    // The closure is still running on the sender's thread.
    #expect(weakToken != nil)
    proceed.signal()
    sender.wait()
    #expect(weakToken == nil)
    subject.send(2)
    #expect(received.withLock { $0 } == [1])
  }
}
