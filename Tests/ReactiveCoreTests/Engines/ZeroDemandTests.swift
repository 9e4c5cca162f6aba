// Cross-cutting: zero demand in every buffering and timing operator at once.

import ReactiveCore
import Testing

@Suite struct ZeroDemandTests {
  // Zero demand: Combine treats it as no demand in buffering and timing operators, and
  // traps on it where it traps (here, as there, a subject subscription).
  @Test(arguments: ["buffer", "delay", "debounce", "throttle", "receiveOn", "timeout", "append"])
  func zeroDemandIsNoDemand(_ name: String) {
    // An upstream that records requests: a subject upstream would trap on the zero
    // demand that delay and receive(on:) pass on, in Combine as here.
    let subject = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let scheduler = TestScheduler()
    let publisher: AnyPublisher<Int, Never> =
      switch name {
      case "buffer":
        subject.buffer(size: 0, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
      case "delay": subject.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
      case "debounce":
        subject.debounce(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
      case "throttle":
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher()
      case "receiveOn": subject.receive(on: scheduler).eraseToAnyPublisher()
      case "timeout": subject.timeout(.seconds(1), scheduler: scheduler).eraseToAnyPublisher()
      default: subject.append(1).eraseToAnyPublisher()
      }
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.subscribe(tracking)
    tracking.request(.none)
    tracking.request(.max(1))
    #expect(tracking.completions.isEmpty)
  }
}
