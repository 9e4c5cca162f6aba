import Foundation
import Workloads

/// The contention section (`--only contention`): Ripple and OpenCombine side by side when
/// runnable threads outnumber cores — 1, 2, 4 and 8 threads, and with `--busy N` that
/// many spinning processes besides (BusyProcesses.swift).
///
/// Each row's Ripple and OpenCombine rounds alternate in this process, after one warm-up
/// round each, and the median round counts. A round's throughput is its operations ÷ the
/// wall time from the threads' release to the last of them done (ContentionRace.swift).
enum Contention {
  /// One throughput workload: its name, its operations per round in a full run (shared
  /// among the threads, so that a round takes about as long at 8 threads as at 1 when the
  /// throughput holds), and each library's side (`nil`: Ripple only).
  struct Case {
    let name: String
    let operations: Int
    let ripple: ContentionRun
    let openCombine: ContentionRun?
  }

  /// The workloads, in the order printed (computed: the closures are not `Sendable`).
  static var cases: [Case] {
    [
      Case(
        name: "subject_1sink", operations: 4_000_000, ripple: RippleContention.subjectOneSink,
        openCombine: OpenCombineContention.subjectOneSink),
      Case(
        name: "subject_100sinks", operations: 100_000,
        ripple: RippleContention.subjectHundredSinks,
        openCombine: OpenCombineContention.subjectHundredSinks),
      Case(
        name: "subscribe_cancel", operations: 1_000_000, ripple: RippleContention.subscribeCancel,
        openCombine: OpenCombineContention.subscribeCancel),
      Case(
        name: "merge_many", operations: 2_000_000, ripple: RippleContention.mergeMany,
        openCombine: OpenCombineContention.mergeMany),
      Case(
        name: "receive_on", operations: 1_000_000, ripple: RippleContention.receiveOn,
        openCombine: OpenCombineContention.receiveOn),
      Case(
        name: "store_stage", operations: 1_000_000, ripple: RippleContention.storeStage,
        openCombine: nil),
      Case(
        name: "scopes_toggle", operations: 200_000, ripple: RippleContention.scopesToggle,
        openCombine: nil),
    ]
  }

  /// The thread counts of the throughput rows.
  static let threadCounts = [1, 2, 4, 8]
  /// The saturating threads of the latency rows: only once they fill the cores (and
  /// more) does the timestamped sender have to wait for them.
  static let latencyThreadCounts = [4, 8]

  /// One throughput row: the median nanoseconds per operation of each side.
  struct Row {
    let name: String
    let threads: Int
    let ripple: Double
    let openCombine: Double?
    /// Ripple's throughput here ÷ its throughput at 2 threads (how much of it this thread
    /// count keeps), once the 2-thread row is known.
    var keeps: Double?
  }

  /// One latency row: p50, p99 and max in nanoseconds for each side.
  struct LatencyRow {
    let threads: Int
    let ripple: [Int]
    let openCombine: [Int]
  }

  /// What the section measured, and every count check that failed.
  struct Report {
    var rows: [Row] = []
    var latency: [LatencyRow] = []
    var failures: [String] = []
    var seconds = 0.0
  }

  /// Runs every row: `--quick` with a tenth of the operations and 3 rounds, else 5.
  static func run(quick: Bool, rows: Set<String>? = nil) -> Report {
    let rounds = quick ? 3 : 5
    let scale = quick ? 10 : 1
    let began = DispatchTime.now().uptimeNanoseconds
    var report = Report()
    for workload in cases where rows?.contains(workload.name) ?? true {
      for threads in threadCounts {
        let perThread = max(1, workload.operations / scale / threads)
        let sides = [workload.ripple] + (workload.openCombine.map { [$0] } ?? [])
        let samples = measure(sides, threads: threads, perThread: perThread, rounds: rounds) {
          report.failures.append(
            "\(workload.name) t\(threads) \($0 == 0 ? "Ripple" : "OpenCombine"): \($1)")
        }
        let nanoseconds = samples.map { side in
          median(side.map { $0.nanoseconds / Double($0.operations) })
        }
        report.rows.append(
          Row(
            name: workload.name, threads: threads, ripple: nanoseconds[0],
            openCombine: nanoseconds.count > 1 ? nanoseconds[1] : nil))
      }
    }
    for index in report.rows.indices {
      let row = report.rows[index]
      if let two = report.rows.first(where: { $0.name == row.name && $0.threads == 2 }) {
        report.rows[index].keeps = two.ripple / row.ripple
      }
    }
    // Latency: every round's delays pooled, so that max is the worst of all rounds.
    let stamps = quick ? 1_000 : 5_000
    for threads in latencyThreadCounts where rows?.contains("subject_latency") ?? true {
      let sides: [ContentionRun] = [
        RippleContention.subjectLatency, OpenCombineContention.subjectLatency,
      ]
      let samples = measure(sides, threads: threads, perThread: stamps, rounds: rounds) {
        report.failures.append(
          "subject_latency t\(threads) \($0 == 0 ? "Ripple" : "OpenCombine"): \($1)")
      }
      let pooled = samples.map { side in side.flatMap(\.latencies).sorted() }
      report.latency.append(
        LatencyRow(
          threads: threads, ripple: percentiles(pooled[0]), openCombine: percentiles(pooled[1])))
    }
    report.seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    return report
  }

  /// One warm-up round of each side (a tenth of the operations), then `rounds` rounds
  /// alternating between the sides; returns each side's counted samples. A failed count
  /// check, warm-up included, is reported through `failed(side, description)`.
  static func measure(
    _ sides: [ContentionRun], threads: Int, perThread: Int, rounds: Int,
    failed: (Int, String) -> Void
  ) -> [[ContentionSample]] {
    for (side, run) in sides.enumerated() {
      if let failure = run(threads, max(1, perThread / 10)).failure { failed(side, failure) }
    }
    var samples: [[ContentionSample]] = Array(repeating: [], count: sides.count)
    for _ in 0..<rounds {
      for (side, run) in sides.enumerated() {
        let sample = run(threads, perThread)
        if let failure = sample.failure { failed(side, failure) }
        samples[side].append(sample)
      }
    }
    return samples
  }

  /// p50, p99 and max of sorted delays (zeros when there are none).
  static func percentiles(_ sorted: [Int]) -> [Int] {
    guard !sorted.isEmpty else { return [0, 0, 0] }
    /// The delay `fraction` of the way up.
    func at(_ fraction: Double) -> Int {
      sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    return [at(0.5), at(0.99), sorted.last!]
  }

  /// Prints the throughput and latency tables, and any failed count check.
  static func printReport(_ report: Report, quick: Bool, busy: Int) {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print(
      "\ncontention — median of \(quick ? 3 : 5) interleaved rounds\(quick ? " (quick)" : "") · "
        + "\(cores) cores, \(busy) busy process\(busy == 1 ? "" : "es") · operations/s "
        + "(ratio: Ripple's throughput ÷ OpenCombine's, >1 Ripple faster; keeps: Ripple's "
        + "throughput ÷ its own at 2 threads)")
    print(
      "workload".padding(toLength: 20, withPad: " ", startingAt: 0) + "threads".leftPadded(8)
        + "ripple".leftPadded(10) + "opencombine".leftPadded(13) + "ratio".leftPadded(8)
        + "keeps".leftPadded(8))
    for row in report.rows {
      print(
        row.name.padding(toLength: 20, withPad: " ", startingAt: 0) + "\(row.threads)".leftPadded(8)
          + perSecond(row.ripple).leftPadded(10)
          + (row.openCombine.map(perSecond) ?? "-").leftPadded(13)
          + (row.openCombine.map { format($0 / row.ripple) } ?? "-").leftPadded(8)
          + (row.keeps.map(format) ?? "-").leftPadded(8))
    }
    print(
      "subject_latency".padding(toLength: 20, withPad: " ", startingAt: 0) + "threads".leftPadded(8)
        + "ripple p50 / p99 / max ns".leftPadded(32)
        + "opencombine p50 / p99 / max ns".leftPadded(36))
    for row in report.latency {
      print(
        "".padding(toLength: 20, withPad: " ", startingAt: 0) + "\(row.threads)".leftPadded(8)
          + row.ripple.map(String.init).joined(separator: " / ").leftPadded(32)
          + row.openCombine.map(String.init).joined(separator: " / ").leftPadded(36))
    }
    print("contention section: \(String(format: "%.1f", report.seconds)) s")
    for failure in report.failures { print("CONTENTION COUNT CHECK FAILED: \(failure)") }
  }

  /// Operations per second, from nanoseconds per operation, as 12.3M or 456k.
  static func perSecond(_ nanoseconds: Double) -> String {
    let rate = 1e9 / nanoseconds
    guard rate.isFinite else { return "0" }
    // 999,950 and up would print as 1000.0k: those are 1.00M.
    return rate >= 999_950
      ? String(format: "%.2fM", rate / 1e6) : String(format: "%.1fk", rate / 1e3)
  }

  /// Adds the rows to the JSON's "workloads" as `contention_<workload>_t<threads>`.
  ///
  /// `ns` is Ripple's nanoseconds per operation. `ratio` is Ripple's time ÷ OpenCombine's,
  /// like the other rows' `ratio_vs_opencombine`: below 1 Ripple is faster (the printed
  /// table's ratio is the other way up, throughput ÷ throughput).
  static func record(_ report: Report, into json: inout [String: [String: Double]]) {
    for row in report.rows {
      var entry = ["ns": row.ripple]
      if let openCombine = row.openCombine {
        entry["opencombine_ns"] = openCombine
        entry["ratio"] = row.ripple / openCombine
      }
      // A round that timed out measured infinity, which JSON cannot hold; its count
      // check already failed the run.
      json["contention_\(row.name)_t\(row.threads)"] = entry.filter { $0.value.isFinite }
    }
    for row in report.latency {
      let names = ["p50_ns", "p99_ns", "max_ns"]
      var entry: [String: Double] = [:]
      for (index, name) in names.enumerated() {
        entry[name] = Double(row.ripple[index])
        entry["opencombine_" + name] = Double(row.openCombine[index])
      }
      json["contention_subject_latency_t\(row.threads)"] = entry
    }
  }

  /// The 4- and 8-thread rows' Ripple time ÷ OpenCombine's, as chart bars (peer 0).
  static func chartBars(_ report: Report) -> [ChartBar] {
    report.rows.compactMap { row in
      guard row.threads >= 4, let openCombine = row.openCombine, openCombine > 0,
        row.ripple.isFinite, openCombine.isFinite
      else { return nil }
      return ChartBar(
        group: "contention_\(row.name)_t\(row.threads)", peer: 0, ratio: row.ripple / openCombine)
    }
  }
}
