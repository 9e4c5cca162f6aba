import ModelTesting
import ReactiveCore
import Testing

/// Seeded random subscribes, cancels (any one of many, in any order) and sends on both
/// subjects, against a model list of the live subscribers: every send reaches exactly the
/// live ones, in subscription order, however many cancels came between. Cancelled
/// subscribers leave the subject's list lazily, so this also covers the list's
/// compaction at every size.
@Suite struct SubjectChurnModelTests {
  final class Log: @unchecked Sendable {
    var entries: [(subscriber: Int, value: Int)] = []
  }

  @Test(arguments: [1, 2, 3, 4])
  func sendsReachExactlyTheLiveSubscribersInOrder(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    let passthrough = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<Int, Never>(0)
    let log = Log()
    var live: [(id: Int, passthrough: AnyCancellable, current: AnyCancellable)] = []
    var next = 0
    for step in 0..<4_000 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        let id = next
        next += 1
        let first = passthrough.sink { log.entries.append((id, $0)) }
        let second = current.dropFirst().sink { log.entries.append((id, -$0)) }
        live.append((id, first, second))
      case 4..<7 where !live.isEmpty:
        // Cancel one of many: mostly recent, sometimes the oldest, sometimes any.
        let index =
          switch Int.random(in: 0..<3, using: &random) {
          case 0: live.count - 1
          case 1: 0
          default: Int.random(in: 0..<live.count, using: &random)
          }
        let removed = live.remove(at: index)
        removed.passthrough.cancel()
        removed.current.cancel()
      default:
        log.entries.removeAll()
        passthrough.send(step)
        current.send(step)
        let expected = live.map { ($0.id, step) } + live.map { ($0.id, -step) }
        #expect(log.entries.map(\.subscriber) == expected.map(\.0), "step \(step)")
        #expect(log.entries.map(\.value) == expected.map(\.1), "step \(step)")
      }
    }
  }

  @Test func cancellingEveryOneOfManyNewestFirstLeavesNoDeliveries() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var cancellables = (0..<1_000).map { id in subject.sink { log.entries.append((id, $0)) } }
    while cancellables.count > 1 {
      cancellables.removeLast().cancel()
    }
    subject.send(7)
    #expect(log.entries.map(\.subscriber) == [0])
    cancellables.removeAll()
    subject.send(8)
    #expect(log.entries.count == 1)
  }

  @Test func aCancelledSubscriberIsReleasedAtOnceWhileOthersStay() {
    final class Target {}
    let subject = PassthroughSubject<Int, Never>()
    let others = (0..<100).map { _ in subject.sink { _ in } }
    weak var released: Target?
    do {
      let target = Target()
      released = target
      let cancellable = subject.sink { _ in _ = target }
      cancellable.cancel()
    }
    #expect(released == nil)
    #expect(others.count == 100)
  }
}
