import Benchmark
import Workloads

// The core workloads as an ordo-one `package-benchmark` suite, for regression tracking:
// wall time and malloc counts per run, compared against a saved baseline with
//
//   swift package --package-path Benchmarks benchmark baseline update main
//   swift package --package-path Benchmarks benchmark baseline check main
//
// Each iteration runs a workload over a fixed number of operations (subscription set-up
// included), so the figures are per batch; RippleCompare gives per-operation ratios.

/// A workload of the suite: its name, operations per iteration, and the code to run.
private struct Entry {
  let name: String
  let operations: Int
  let run: (Int) -> Void
}

private func rippleEntries() -> [Entry] {
  [
    Entry(name: "pipeline", operations: 10_000, run: RippleWorkloads.pipeline),
    Entry(name: "subject_sink", operations: 10_000, run: RippleWorkloads.subjectSink),
    Entry(name: "sink_cancel", operations: 1_000, run: RippleWorkloads.sinkCancel),
    Entry(name: "fanout_1000", operations: 10_000, run: RippleWorkloads.fanout),
    Entry(name: "current_value_send", operations: 10_000, run: RippleWorkloads.currentValueSend),
    Entry(name: "dedupe_scan", operations: 10_000, run: RippleWorkloads.dedupeScan),
    Entry(name: "combine_latest", operations: 10_000, run: RippleWorkloads.combineLatest),
    Entry(name: "merge", operations: 10_000, run: RippleWorkloads.merge),
    Entry(name: "flat_map", operations: 1_000, run: RippleWorkloads.flatMap),
    Entry(
      name: "invalidating_equal_set", operations: 10_000, run: RippleWorkloads.invalidatingEqualSet),
    Entry(
      name: "invalidating_changed_set", operations: 10_000,
      run: RippleWorkloads.invalidatingChangedSet),
    Entry(name: "store_stage_notify", operations: 10_000, run: RippleWorkloads.storeStageNotify),
    Entry(
      name: "lineage_read_depth64", operations: 10_000, run: RippleWorkloads.lineageReadDepth64),
    Entry(name: "lineage_write_fanout", operations: 100, run: RippleWorkloads.lineageWriteFanout),
    Entry(name: "scopes_activate_10k", operations: 10_000, run: RippleWorkloads.scopesActivate),
  ]
}

/// OpenCombine on the same ReactiveCore workloads, so a regression shows against a
/// fixed reference measured on the same machine.
private func openCombineEntries() -> [Entry] {
  [
    Entry(name: "pipeline", operations: 10_000, run: OpenCombineWorkloads.pipeline),
    Entry(name: "subject_sink", operations: 10_000, run: OpenCombineWorkloads.subjectSink),
    Entry(name: "sink_cancel", operations: 1_000, run: OpenCombineWorkloads.sinkCancel),
    Entry(name: "flat_map", operations: 1_000, run: OpenCombineWorkloads.flatMap),
  ]
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    maxDuration: .seconds(1),
    maxIterations: 1_000
  )
  for entry in rippleEntries() {
    Benchmark("ripple.\(entry.name)") { _ in entry.run(entry.operations) }
  }
  for entry in openCombineEntries() {
    Benchmark("opencombine.\(entry.name)") { _ in
      entry.run(entry.operations)
    }
  }
}
