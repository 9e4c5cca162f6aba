import ReactiveCore
import Testing

@Suite struct FirstTests {
  @Test func firstAndLast() {
    var cancelled = false
    let first = collectAll(
      (1...3).publisher.handleEvents(receiveCancel: { cancelled = true }).first())
    #expect(first.0 == [1])
    #expect(first.1 == [.finished])
    #expect(cancelled)
    #expect(collectAll((1...6).publisher.first { $0 > 3 }).0 == [4])
    #expect(collectAll((1...6).publisher.tryFirst { $0 > 4 }).0 == [5])
    #expect(collectAll((1...3).publisher.last()).0 == [3])
    #expect(collectAll((1...6).publisher.last { $0 < 3 }).0 == [2])
    #expect(collectAll((1...6).publisher.tryLast { $0 < 5 }).0 == [4])
    #expect(collectAll(Empty<Int, Never>().first()).0 == [])
  }
}
