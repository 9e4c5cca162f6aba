import ReactiveCore
import Testing

@Suite struct PrintTests {
  final class Lines: TextOutputStream, @unchecked Sendable {
    var writes: [String] = []
    func write(_ string: String) { writes.append(string) }
  }

  @Test func printWritesEveryEvent() {
    final class Lines: TextOutputStream {
      var text = ""
      func write(_ string: String) { text += string }
    }
    let lines = Lines()
    let cancellable = [1].publisher.print("n", to: lines).sink { _ in }
    #expect(
      lines.text
        == "n: receive subscription: ([1])\nn: request unlimited\nn: receive value: (1)\nn: receive finished\n"
    )
    cancellable.cancel()
  }

  // `print` writes what Combine's does.
  @Test func writesAsSwiftPrintAndSpellsDemandAsCombine() {
    let lines = Lines()
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.print(to: lines).subscribe(tracking)
    #expect(
      Array(lines.writes.prefix(6)) == [
        "", "receive subscription: (ReactiveCoreTests.RecordingSubscription)", "\n",
        "", "request max: (2)", "\n",
      ])
  }

  @Test func keepsLoggingAfterACancel() throws {
    let lines = Lines()
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.print(to: lines).subscribe(tracking)
    let subscription = try #require(tracking.subscription)
    subscription.cancel()
    subscription.cancel()
    subscription.request(.max(1))
    publisher.send(3)
    #expect(
      Array(lines.writes.dropFirst(3)) == [
        "", "receive cancel", "\n", "", "receive cancel", "\n", "", "request max: (1)", "\n",
        "", "receive value: (3)", "\n",
      ])
  }
}
