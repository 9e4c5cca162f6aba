import Dispatch
import Workloads

/// One way to run a workload: it performs `n` operations and returns nothing.
typealias Run = (_ n: Int) -> Void

/// A named workload with up to three contestants.
struct Workload {
  let name: String
  let operations: Int
  let ripple: Run
  let openCombine: Run?
  let baseline: Run?
}

/// Median nanoseconds per operation for each contestant.
struct Result {
  var ripple: Double
  var openCombine: Double?
  var baseline: Double?
  var asyncStream: Double?
  var asyncChannel: Double?
}

func nanoseconds(_ n: Int, _ run: Run) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  run(n)
  let end = DispatchTime.now().uptimeNanoseconds
  return Double(end - start) / Double(n)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// Runs the contestants interleaved (A B C A B C …) after one warm-up round each: Ripple,
/// OpenCombine, the baseline, and the workload's `AsyncStream` and `AsyncChannel` peers
/// (each of those with its own operation count).
func measure(_ workload: Workload, rounds: Int, scale: Double) -> Result {
  func count(_ operations: Int) -> Int { max(1, Int(Double(operations) * scale)) }
  let n = count(workload.operations)
  let peers = asyncPeers[workload.name]
  let contestants: [(run: Run, n: Int)?] = [
    (workload.ripple, n), workload.openCombine.map { ($0, n) }, workload.baseline.map { ($0, n) },
    peers.map { ($0.stream, count($0.streamOperations)) },
    peers.map { ($0.channel, count($0.channelOperations)) },
  ]
  for contestant in contestants {
    contestant.map { _ = nanoseconds(max(1, $0.n / 10), $0.run) }
  }
  var samples: [[Double]] = Array(repeating: [], count: contestants.count)
  for _ in 0..<rounds {
    for (index, contestant) in contestants.enumerated() {
      if let contestant { samples[index].append(nanoseconds(contestant.n, contestant.run)) }
    }
  }
  func result(_ index: Int) -> Double? { samples[index].isEmpty ? nil : median(samples[index]) }
  return Result(
    ripple: median(samples[0]), openCombine: result(1), baseline: result(2),
    asyncStream: result(3), asyncChannel: result(4))
}
