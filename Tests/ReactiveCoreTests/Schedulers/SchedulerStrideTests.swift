import ReactiveCore
import Testing

@Suite struct SchedulerStrideTests {
  @Test(arguments: [
    (SchedulerStride.seconds(1), 1_000_000_000),
    (.milliseconds(500), 500_000_000),
    (.microseconds(3), 3_000),
    (.nanoseconds(7), 7),
    (.seconds(1.5), 1_500_000_000),
  ])
  func strideConversions(stride: SchedulerStride, nanoseconds: Int) {
    #expect(stride.magnitude == nanoseconds)
  }

  // Stride arithmetic never traps.
  @Test func productsOfSecondsSaturate() {
    #expect((SchedulerStride.seconds(-4) * .seconds(5)).magnitude == .min)
    #expect((SchedulerStride.seconds(4) * .seconds(5)).magnitude == .max)
    #expect((SchedulerStride.nanoseconds(3) * .nanoseconds(5)).magnitude == 15)
  }
}
