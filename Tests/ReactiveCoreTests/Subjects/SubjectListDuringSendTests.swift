import ReactiveCore
import Testing

/// A send walks the subject's subscriber list without holding the subject's lock, so
/// subscribers may subscribe, cancel and complete from inside a delivery. Each case
/// changes the list while a send walks it (under AddressSanitizer in CI, a list freed
/// or rewritten under the walk would fail here), and checks what Combine delivers.
@Suite struct SubjectListDuringSendTests {
  /// Subscribers that join from inside a delivery grow the list past its capacity
  /// (the storage moves); they get the next value, not the one being sent.
  @Test(arguments: [1, 3, 40])
  func subscribersJoiningDuringASendGetTheNextValue(joining: Int) {
    let subject = PassthroughSubject<Int, Never>()
    var received: [[Int]] = Array(repeating: [], count: joining + 2)
    var keep: [AnyCancellable] = []
    keep.append(
      subject.sink { value in
        received[0].append(value)
        guard value == 1 else { return }
        for index in 0..<joining {
          keep.append(subject.sink { received[index + 2].append($0) })
        }
      })
    keep.append(subject.sink { received[1].append($0) })
    subject.send(1)
    subject.send(2)
    #expect(received[0] == [1, 2])
    #expect(received[1] == [1, 2])
    for index in 0..<joining { #expect(received[index + 2] == [2]) }
    // The closures hold `keep`, which holds their sinks: cancelling breaks the cycle.
    for cancellable in keep { cancellable.cancel() }
  }

  /// Cancelling most subscribers from inside a delivery compacts the list under the
  /// walk; the ones still to come in this send and not cancelled get the value.
  @Test func cancellingManySubscribersDuringASendCompactsSafely() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [[Int]] = Array(repeating: [], count: 30)
    var cancellables: [AnyCancellable] = []
    cancellables.append(
      subject.sink { value in
        received[0].append(value)
        // Every subscriber but the first and the last two.
        if value == 1 { for index in 1..<27 { cancellables[index].cancel() } }
      })
    for index in 1..<30 {
      cancellables.append(subject.sink { received[index].append($0) })
    }
    subject.send(1)
    subject.send(2)
    #expect(received[0] == [1, 2])
    for index in 1..<27 { #expect(received[index].isEmpty) }
    for index in 27..<30 { #expect(received[index] == [1, 2]) }
    for cancellable in cancellables { cancellable.cancel() }
  }

  /// Completing the subject from inside a delivery empties its list under the walk:
  /// the subscribers still to come get the completion and not the value.
  @Test func completingDuringASendEndsTheRestOfTheWalk() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [[Int]] = [[], [], []]
    var finished = [false, false, false]
    var keep: [AnyCancellable] = []
    for index in 0..<3 {
      keep.append(
        subject.sink(
          receiveCompletion: { _ in finished[index] = true },
          receiveValue: { value in
            values[index].append(value)
            if index == 0 { subject.send(completion: .finished) }
          }))
    }
    subject.send(1)
    subject.send(2)
    #expect(values == [[1], [], []])
    #expect(finished == [true, true, true])
    for cancellable in keep { cancellable.cancel() }
  }

  /// A subscriber cancelled from inside a delivery is let go once that send returns,
  /// not kept until some later send or subscription.
  @Test func aSubscriberCancelledDuringASendIsReleasedWhenTheSendReturns() {
    final class Token {}
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    let other = subject.sink { _ in cancellable?.cancel() }
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.sink { _ in withExtendedLifetime(token) {} }
    }
    subject.send(1)
    cancellable = nil
    #expect(weakToken == nil)
    withExtendedLifetime(other) {}
  }

  /// A value sent to a subject from inside a delivery, while the list changes, reaches
  /// every subscriber present when it was sent, in order.
  @Test func nestedSendsSeeTheListAsItWasWhenTheyStarted() {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    var keep: [AnyCancellable] = []
    keep.append(
      subject.sink { value in
        log.append("a\(value)")
        if value == 1 {
          keep.append(subject.sink { log.append("c\($0)") })
          subject.send(2)
        }
      })
    keep.append(subject.sink { log.append("b\($0)") })
    subject.send(1)
    #expect(log == ["a1", "a2", "b2", "c2", "b1"])
    for cancellable in keep { cancellable.cancel() }
  }
}
