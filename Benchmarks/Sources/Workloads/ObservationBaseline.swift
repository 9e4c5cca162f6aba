import Observation

extension ExtrasWorkloads {
  /// Counts the changes a raw Observation loop has seen; written only from the `onChange`
  /// callback, which runs synchronously inside the setter on the benchmark's one thread.
  final class ChangeCount: @unchecked Sendable {
    var count = 0
  }

  /// The limit for `observation_publisher`: the cheapest correct hand-written loop over
  /// `withObservationTracking`. Per change: set the property (the `onChange` callback runs
  /// in the setter and records the change), then read the new value under a new tracking
  /// scope, which re-registers for the next change.
  @inline(never)
  public static func rawObservation(_ n: Int) {
    let model = Model()
    let changes = ChangeCount()
    @inline(__always) func track() -> Int {
      withObservationTracking {
        model.count
      } onChange: {
        changes.count &+= 1
      }
    }
    var sum = track()
    for i in 0..<n {
      model.count = i
      sum &+= track()
    }
    blackHole &+= sum &+ changes.count
  }
}
