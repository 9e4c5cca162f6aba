import Testing

@testable import KeyedStore

/// Background writes take about a tenth of the time at most: after a write of *d*, the
/// next waits until 9 *d* have passed (at most 10 s), so a large store staged every few
/// milliseconds is rewritten every few seconds rather than continuously.
@Suite struct WritePacingTests {
  @Test func theFirstWriteStartsAtOnce() {
    #expect(WritePacing().delay(at: .now) == .zero)
  }

  @Test(arguments: [1, 30, 400])
  func aWriteOfDMillisecondsIsFollowedBy9DWithoutOne(milliseconds: Int) {
    var pacing = WritePacing()
    let start = ContinuousClock.now
    let end = start + .milliseconds(milliseconds)
    pacing.wrote(from: start, to: end)
    #expect(pacing.delay(at: end) == .milliseconds(9 * milliseconds))
    #expect(pacing.delay(at: end + .milliseconds(9 * milliseconds)) == .zero)
    #expect(pacing.delay(at: end + .seconds(60)) == .zero)
  }

  @Test func thePauseIsCapped() {
    var pacing = WritePacing()
    let start = ContinuousClock.now
    pacing.wrote(from: start, to: start + .seconds(5))
    #expect(pacing.delay(at: start + .seconds(5)) == WritePacing.longestPause)
  }
}
