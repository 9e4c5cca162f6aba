import ReactiveCore
import Testing

@Suite struct EmptyTests {
  @Test func emptyAndFail() {
    let empty = TrackingSubscriber<Int, TestError>()
    Empty<Int, TestError>().subscribe(empty)
    #expect(empty.events == [.subscription("Empty"), .completion(.finished)])
    let never = TrackingSubscriber<Int, TestError>()
    Empty<Int, TestError>(completeImmediately: false).subscribe(never)
    #expect(never.completions.isEmpty)
    let fail = TrackingSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: .oops).subscribe(fail)
    #expect(fail.completions == [.failure(.oops)])
  }
}
