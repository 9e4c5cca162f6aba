import ReactiveCore
import Testing

@Suite struct DeferredTests {
  @Test func deferredRunsOncePerSubscription() {
    var runs = 0
    let deferred = Deferred {
      runs += 1
      return Just(runs)
    }
    var received: [Int] = []
    _ = deferred.sink { received.append($0) }
    _ = deferred.sink { received.append($0) }
    #expect(runs == 2)
    #expect(received == [1, 2])
  }
}
