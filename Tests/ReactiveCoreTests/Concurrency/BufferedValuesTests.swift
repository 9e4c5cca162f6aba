import ReactiveCore
import Synchronization
import Testing

/// A gate a loop body waits at, opened by the test.
private actor Gate {
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var isOpen = false
  func wait() async {
    guard !isOpen else { return }
    await withCheckedContinuation { waiters.append($0) }
  }
  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}

/// Iterates `sequence`, waiting at `gate` after the first value, and returns what arrived.
private func collect<S: AsyncSequence>(
  _ sequence: S, gate: Gate, count: Int
) async throws -> [Int] where S.Element == Int {
  var received: [Int] = []
  for try await value in sequence {
    received.append(value)
    if received.count == 1 { await gate.wait() }  // as a body that writes to a slow client
    if received.count == count || value == 99 { break }
  }
  return received
}

@Suite struct BufferedValuesTests {
  /// Plain `values` follows Combine's demand, one value per iteration: a subject drops
  /// what it sends while the body awaits. This is Combine's behaviour, kept on purpose;
  /// the Async guide says so and points to `values(bufferingPolicy:)`.
  @Test func plainValuesDropsWhatASubjectSendsWhileTheBodyAwaits() async throws {
    let subject = PassthroughSubject<Int, Never>()
    let demanded = Signal()
    let gate = Gate()
    let task = Task {
      let requests = subject.handleEvents(receiveRequest: { _ in demanded.fire() })
      return try await collect(requests.values, gate: gate, count: 11)
    }
    await demanded.wait(count: 1)
    for value in 1...10 { subject.send(value) }  // 2…10 arrive while the body waits
    await gate.open()
    await demanded.wait(count: 2)
    subject.send(99)
    #expect(try await task.value == [1, 99])
  }

  /// The buffered sequence keeps every value sent while the body awaits, in order.
  @Test func bufferedValuesKeepEverythingInOrder() async throws {
    let subject = PassthroughSubject<Int, Never>()
    let gate = Gate()
    let sequence = subject.values(bufferingPolicy: .unbounded)
    let task = Task { try await collect(sequence, gate: gate, count: 11) }
    for value in 1...10 { subject.send(value) }
    await gate.open()
    subject.send(99)
    #expect(try await task.value == Array(1...10) + [99])
  }

  /// `.bufferingNewest(n)` keeps the newest `n` that waited.
  @Test func bufferingNewestKeepsTheLatest() async throws {
    let subject = PassthroughSubject<Int, Never>()
    let sequence = subject.values(bufferingPolicy: .bufferingNewest(3))
    for value in 1...10 { subject.send(value) }
    subject.send(completion: .finished)
    var received: [Int] = []
    for await value in sequence { received.append(value) }
    #expect(received == [8, 9, 10])
  }

  /// The throwing form throws the failure after the values before it.
  @Test func theThrowingFormThrowsAfterTheBufferedValues() async {
    struct Failure: Error, Equatable {}
    let subject = PassthroughSubject<Int, Failure>()
    let sequence = subject.values(bufferingPolicy: .unbounded)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(Failure()))
    var received: [Int] = []
    await #expect(throws: Failure.self) {
      for try await value in sequence { received.append(value) }
    }
    #expect(received == [1, 2])
  }

  /// Breaking out of the loop once the sequence is gone, or dropping a sequence never
  /// iterated, cancels the subscription.
  @Test func endingTheLoopOrDroppingTheSequenceCancels() async {
    let subject = PassthroughSubject<Int, Never>()
    let cancels = Signal()
    let watched = subject.handleEvents(receiveCancel: { cancels.fire() })
    do {
      let sequence = watched.values(bufferingPolicy: .unbounded)
      subject.send(1)
      for await _ in sequence { break }
    }
    await cancels.wait(count: 1)
    do { _ = watched.values(bufferingPolicy: .unbounded) }
    await cancels.wait(count: 2)
    subject.send(1)  // nobody is left to receive it
  }
}

/// Counts events from any thread; a test awaits a count.
private final class Signal: Sendable {
  private let count = Atomic(0)
  func fire() { count.add(1, ordering: .sequentiallyConsistent) }
  func wait(count target: Int) async {
    while count.load(ordering: .sequentiallyConsistent) < target { await Task.yield() }
  }
}
