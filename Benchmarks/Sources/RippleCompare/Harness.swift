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

/// Runs the contestants interleaved (A B C A B C …) after one warm-up round each.
func measure(_ workload: Workload, rounds: Int, scale: Double) -> Result {
  let n = max(1, Int(Double(workload.operations) * scale))
  let contestants: [Run?] = [workload.ripple, workload.openCombine, workload.baseline]
  for run in contestants { run.map { _ = nanoseconds(max(1, n / 10), $0) } }
  var samples: [[Double]] = [[], [], []]
  for _ in 0..<rounds {
    for (index, run) in contestants.enumerated() {
      if let run { samples[index].append(nanoseconds(n, run)) }
    }
  }
  return Result(
    ripple: median(samples[0]),
    openCombine: samples[1].isEmpty ? nil : median(samples[1]),
    baseline: samples[2].isEmpty ? nil : median(samples[2]))
}
