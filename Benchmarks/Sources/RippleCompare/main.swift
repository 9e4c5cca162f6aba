import Foundation
import MallocStats
import Workloads

#if canImport(Glibc)
  import Glibc
#endif

// RippleCompare: Ripple, OpenCombine, AsyncStream/AsyncChannel and hand-written Swift,
// side by side, interleaved.
//
//   swift run -c release --package-path Benchmarks RippleCompare [--quick] [--json FILE]
//   RippleCompare --svg FILE              also draws the ratios as an SVG chart (Chart.swift)
//   RippleCompare --only scaling          only the scaling rows of Growth.swift
//   RippleCompare --only NAME,NAME       measures only the workloads named (the store rows:
//                                        scaling_store_persisted_flush, store_paced_stage_cpu)
//   RippleCompare --profile WORKLOAD N   runs only Ripple's side, N operations, once: for
//                                        callgrind (two N values give instructions per op)
//   RippleCompare --profile WORKLOAD N --side baseline|opencombine
//                                        the same for the workload's other columns
//   RippleCompare --store-child …        (hidden) the second process of the cross-process
//                                        store workloads; see CrossProcessStore.swift
//   RippleCompare --only contention      only the contention section (Contention.swift);
//                                        a full run has it too, `--quick` a tenth of it
//   RippleCompare --only contention --rows NAME,NAME
//                                        only the contention rows named (receive_on,
//                                        subject_latency, …)
//   RippleCompare --busy N               N spinning processes for the whole run
//                                        (BusyProcesses.swift; `--spin` is theirs, hidden)

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--store-child") {
  CrossProcessStoreWorkloads.runChild(arguments[(index + 1)...])
}
if let index = arguments.firstIndex(of: "--spin") { BusyProcesses.spin(arguments[(index + 1)...]) }
let busyProcesses = BusyProcesses.start(arguments)
let quick = arguments.contains("--quick")
let jsonPath = arguments.firstIndex(of: "--json").flatMap {
  arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let svgPath = arguments.firstIndex(of: "--svg").flatMap {
  arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let rounds = quick ? 3 : 9
let scale = quick ? 0.05 : 1.0

// Assigned at run time so whole-module optimisation cannot treat them as constants.
Baselines.sink = { blackHole &+= $0 }
Baselines.filter = { if $0 & 1 == 0 { Baselines.sink($0) } }
Baselines.map = { Baselines.filter($0 &+ 1) }

// glibc skips the atomic instructions in its locks while a process has one thread, which
// flatters every lock; an idle second thread makes the measurement honest.
Thread.detachNewThread { while true { sleep(1_000) } }
usleep(10_000)

let workloads: [Workload] = [
  Workload(
    name: "pipeline", operations: 10_000_000, ripple: RippleWorkloads.pipeline,
    openCombine: OpenCombineWorkloads.pipeline, baseline: Baselines.closureChain),
  Workload(
    name: "subject_sink", operations: 10_000_000, ripple: RippleWorkloads.subjectSink,
    openCombine: OpenCombineWorkloads.subjectSink, baseline: Baselines.closureCall),
  Workload(
    name: "sink_cancel", operations: 1_000_000, ripple: RippleWorkloads.sinkCancel,
    openCombine: OpenCombineWorkloads.sinkCancel, baseline: nil),
  Workload(
    name: "fanout_1000", operations: 10_000_000, ripple: RippleWorkloads.fanout,
    openCombine: OpenCombineWorkloads.fanout, baseline: Baselines.closureCall),
  Workload(
    name: "current_value_send", operations: 2_000_000, ripple: RippleWorkloads.currentValueSend,
    openCombine: OpenCombineWorkloads.currentValueSend, baseline: Baselines.closureCall),
  Workload(
    name: "dedupe_scan", operations: 2_000_000, ripple: RippleWorkloads.dedupeScan,
    openCombine: OpenCombineWorkloads.dedupeScan, baseline: Baselines.dedupeScan),
  Workload(
    name: "combine_latest", operations: 500_000, ripple: RippleWorkloads.combineLatest,
    openCombine: nil, baseline: nil),
  Workload(
    name: "merge", operations: 500_000, ripple: RippleWorkloads.merge,
    openCombine: nil, baseline: nil),
  Workload(
    name: "flat_map", operations: 200_000, ripple: RippleWorkloads.flatMap,
    openCombine: OpenCombineWorkloads.flatMap, baseline: nil),
  Workload(
    name: "share_replay_fanout", operations: 2_000_000, ripple: ExtrasWorkloads.shareReplayFanout,
    openCombine: nil, baseline: ExtrasWorkloads.shareReplayFanoutBaseline),
  Workload(
    name: "with_latest_from", operations: 2_000_000, ripple: ExtrasWorkloads.withLatestFrom,
    openCombine: nil, baseline: ExtrasWorkloads.withLatestFromBaseline),
  // ÷base: against the cheapest hand-written withObservationTracking loop (issue 30).
  Workload(
    name: "observation_publisher", operations: 200_000,
    ripple: ExtrasWorkloads.observationPublisher,
    openCombine: nil, baseline: ExtrasWorkloads.rawObservation),
  Workload(
    name: "invalidating_equal_set", operations: 2_000_000,
    ripple: RippleWorkloads.invalidatingEqualSet,
    openCombine: nil, baseline: RippleWorkloads.plainSet),
  Workload(
    name: "invalidating_changed_set", operations: 1_000_000,
    ripple: RippleWorkloads.invalidatingChangedSet,
    openCombine: nil, baseline: RippleWorkloads.plainSet),
  Workload(
    name: "store_stage_notify", operations: 500_000, ripple: RippleWorkloads.storeStageNotify,
    openCombine: nil, baseline: Baselines.mutexDictionaryWriteAndCall),
  // The baseline is the in-memory store: ÷base is the cost of persisting (issue: ≤ 1.5×).
  Workload(
    name: "store_stage_notify_persisted", operations: 500_000,
    ripple: PersistedStoreWorkloads.stageNotify,
    openCombine: nil, baseline: RippleWorkloads.storeStageNotify),
  Workload(
    name: "lineage_read_depth64", operations: 1_000_000,
    ripple: RippleWorkloads.lineageReadDepth64,
    openCombine: nil, baseline: RippleWorkloads.lineageOwnRead),
  Workload(
    name: "lineage_write_fanout", operations: 50_000, ripple: RippleWorkloads.lineageWriteFanout,
    openCombine: nil, baseline: nil),
  // ÷base: the loop's pass (with Observation tracking) against `renderPass()` called
  // directly, both after the same 10,000 sets across 1,000 nodes (issue 18: ≤ 1.2×).
  Workload(
    name: "render_loop_coalesce", operations: 400,
    ripple: RenderLoopWorkloads.renderLoopCoalesce,
    openCombine: nil, baseline: RenderLoopWorkloads.directRenderPass),
  // ÷base: an @Observable change → node dirty → redrawn, against an @Invalidating set.
  Workload(
    name: "observation_invalidate", operations: 200_000,
    ripple: RenderLoopWorkloads.observationInvalidate,
    openCombine: nil, baseline: RenderLoopWorkloads.invalidatingInvalidate),
  // ÷base: a full repaint of a 200×60 screen of mixed-width text through the terminal
  // backend (every row redrawn), against formatting the same rows by hand (issue 27).
  Workload(
    name: "terminal_full_repaint", operations: 200,
    ripple: TerminalRepaintWorkloads.fullRepaint,
    openCombine: nil, baseline: TerminalRepaintWorkloads.handWrittenRepaint),
  // ÷base: a key typed at the end of a 1,000,000-character TextInput and the field drawn
  // again, against the same edit on a [Character] and its last 80 columns by hand.
  Workload(
    name: "terminal_text_input_key", operations: 2_000,
    ripple: TextInputWorkloads.keyAtTheEnd,
    openCombine: nil, baseline: TextInputWorkloads.handWrittenKey),
]

if let index = arguments.firstIndex(of: "--profile") {
  let name = arguments.indices.contains(index + 1) ? arguments[index + 1] : ""
  let count = arguments.indices.contains(index + 2) ? Int(arguments[index + 2]) : nil
  if let count, profileGrowth(name, operations: count) { exit(0) }
  let side = arguments.firstIndex(of: "--side").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
  }
  guard let workload = workloads.first(where: { $0.name == name }), let count,
    let run = side == nil
      ? workload.ripple
      : side == "baseline" ? workload.baseline : side == "opencombine" ? workload.openCombine : nil
  else {
    print(
      "usage: RippleCompare --profile WORKLOAD N [--side baseline|opencombine], where WORKLOAD"
        + " is one of (and has that side):")
    print(workloads.map(\.name).joined(separator: " "))
    exit(2)
  }
  run(count)
  exit(0)
}

let only = arguments.firstIndex(of: "--only").flatMap {
  arguments.indices.contains($0 + 1)
    ? Set(arguments[$0 + 1].split(separator: ",").map(String.init)) : nil
}
func selected(_ name: String) -> Bool { only?.contains(name) ?? true }

var results: [(String, Result)] = []
for workload in workloads where selected(workload.name) {
  results.append((workload.name, measure(workload, rounds: rounds, scale: scale)))
}

// Scopes: activating a tree of n behaviors, per behavior, at two sizes.
let scopeSizes = quick ? (1_000, 10_000) : (10_000, 100_000)
var scopesRatio: Double?
if selected("scopes_activate_10k") || selected("scopes_activate_100k") {
  let scopesSmall = median(
    (0..<rounds).map { _ in nanoseconds(scopeSizes.0, RippleWorkloads.scopesActivate) })
  let scopesLarge = median(
    (0..<rounds).map { _ in nanoseconds(scopeSizes.1, RippleWorkloads.scopesActivate) })
  results.append(("scopes_activate_10k", Result(ripple: scopesSmall)))
  results.append(("scopes_activate_100k", Result(ripple: scopesLarge)))
  scopesRatio = scopesLarge * Double(scopeSizes.1) / (scopesSmall * Double(scopeSizes.0))
}

// Issue 32: Scopes and Lineage costs at three sizes (ScopesLineageScaling.swift).
let scalingRows = ScopesLineageScaling.run(
  quick: quick, rounds: rounds, arguments: arguments, selected: selected)

// Memory per live sink: malloc's in-use bytes (heap and mmapped) before and after 100k
// live sinks on one subject, the array that holds them reserved beforehand.
func inUseBytes() -> Int { Int(ripple_malloc_in_use_bytes()) }
func bytesPerSink(_ make: (Int, inout [AnyObject]) -> Void) -> Double {
  let count = quick ? 20_000 : 100_000
  var live: [AnyObject] = []
  live.reserveCapacity(count)
  let before = inUseBytes()
  make(count, &live)
  let after = inUseBytes()
  withExtendedLifetime(live) {}
  return Double(after - before) / Double(count)
}
if selected("memory_per_sink") {
  // The heap's state shifts a one-off reading by a few bytes per sink: warm both
  // libraries up, then take the median of interleaved readings.
  _ = bytesPerSink(RippleWorkloads.liveSinks)
  _ = bytesPerSink(OpenCombineWorkloads.liveSinks)
  var rippleReadings: [Double] = []
  var openCombineReadings: [Double] = []
  for _ in 0..<(quick ? 3 : 5) {
    rippleReadings.append(bytesPerSink(RippleWorkloads.liveSinks))
    openCombineReadings.append(bytesPerSink(OpenCombineWorkloads.liveSinks))
  }
  let rippleBytes = median(rippleReadings)
  let openCombineBytes = median(openCombineReadings)
  results.append(("memory_per_sink", Result(ripple: rippleBytes, openCombine: openCombineBytes)))
}

// Issue 30 item 4 / issue 32 item 6: ReactiveCore, ReactiveExtras and store rows (Growth.swift).
let growth = runGrowth(quick: quick) { selected($0) || only?.contains("scaling") == true }

// Print the table.
func format(_ value: Double?) -> String {
  guard let value else { return "-" }
  return String(format: value < 10 ? "%.2f" : "%.1f", value)
}
print(
  "RippleCompare — median of \(rounds) interleaved rounds\(quick ? " (quick)" : "") · ns/op (memory_per_sink: bytes)"
)
print(
  "workload".padding(toLength: 26, withPad: " ", startingAt: 0) + "ripple".leftPadded(10)
    + "opencombine".leftPadded(13) + "baseline".leftPadded(10) + "stream".leftPadded(10)
    + "channel".leftPadded(10) + "÷OC".leftPadded(8) + "÷base".leftPadded(8)
    + "÷stream".leftPadded(9) + "÷chan".leftPadded(8))
var json: [String: [String: Double]] = [:]
for (name, result) in results {
  var entry: [String: Double] = ["ripple_ns": result.ripple]
  var line =
    name.padding(toLength: 26, withPad: " ", startingAt: 0) + format(result.ripple).leftPadded(10)
  line += format(result.openCombine).leftPadded(13) + format(result.baseline).leftPadded(10)
  line += format(result.asyncStream).leftPadded(10) + format(result.asyncChannel).leftPadded(10)
  if let openCombine = result.openCombine {
    entry["opencombine_ns"] = openCombine
    entry["ratio_vs_opencombine"] = result.ripple / openCombine
  }
  if let baseline = result.baseline {
    entry["baseline_ns"] = baseline
    entry["ratio_vs_baseline"] = result.ripple / baseline
  }
  // `async_ns` is the AsyncStream peer (the faster async peer); AsyncChannel is beside it.
  if let stream = result.asyncStream {
    entry["async_ns"] = stream
    entry["ratio_vs_async"] = result.ripple / stream
  }
  if let channel = result.asyncChannel {
    entry["async_channel_ns"] = channel
    entry["ratio_vs_async_channel"] = result.ripple / channel
  }
  line +=
    format(entry["ratio_vs_opencombine"]).leftPadded(8)
    + format(entry["ratio_vs_baseline"]).leftPadded(8)
    + (entry["ratio_vs_async"].map(ratioLabel) ?? "-").leftPadded(9)
    + (entry["ratio_vs_async_channel"].map(ratioLabel) ?? "-").leftPadded(8)
  print(line)
  json[name] = entry
}
printGrowth(growth, quick: quick)
if let scopesRatio {
  print("scopes_activate ratio 100k/10k (per behavior × 10): \(format(scopesRatio))")
}
ScopesLineageScaling.report(scalingRows, into: &json)
print(
  "count check: 1,000 sets then one render pass → \(RippleWorkloads.layoutsPerPassAfterThousandSets()) layout(s) per node"
)
if selected("store_stage_notify_persisted") { PersistedStoreWorkloads.printFigures() }
if selected("store_paced_stage_cpu") {
  json["store_paced_stage_cpu"] = PersistedStoreWorkloads.pacedStageCPU(seconds: quick ? 2 : 6)
}
if selected("terminal_frame_bytes") { RenderLoopBenchmarks.printFigures() }
if let repaint = results.first(where: { $0.0 == "terminal_full_repaint" })?.1,
  let baseline = repaint.baseline
{
  let bytes = TerminalRepaintWorkloads.frameBytes()
  print(
    "terminal_full_repaint: 200×60 mixed-width screen → Ripple "
      + "\(format(repaint.ripple / 1_000)) µs, \(bytes.ripple) B per frame; hand-written "
      + "\(format(baseline / 1_000)) µs, \(bytes.baseline) B (×\(format(repaint.ripple / baseline)) "
      + "the time, ×\(format(Double(bytes.ripple) / Double(bytes.baseline))) the bytes)")
  json["terminal_full_repaint"]?["ripple_bytes_per_frame"] = Double(bytes.ripple)
  json["terminal_full_repaint"]?["baseline_bytes_per_frame"] = Double(bytes.baseline)
}

// Issue 26, between processes: figures, not interleaved rounds (each spawns children).
var crossProcessFailed = false
if selected("store_external_change_latency") {
  let figures = CrossProcessStoreWorkloads.externalChangeLatency(rounds: quick ? 20 : 200)
  if let figures {
    json["store_external_change_latency"] = figures
  } else {
    crossProcessFailed = true
  }
}
if selected("store_update_cross_process") {
  let figures = CrossProcessStoreWorkloads.updateCrossProcess(perProcess: quick ? 100 : 1_000)
  json["store_update_cross_process"] = figures
  if figures?["correct"] != 1 { crossProcessFailed = true }
}
CrossProcessStoreWorkloads.removeFiles()

// More runnable threads than cores (Contention.swift); a wrong count fails the run.
var contention: Contention.Report?
if selected("contention") {
  let rows = arguments.firstIndex(of: "--rows").flatMap {
    arguments.indices.contains($0 + 1)
      ? Set(arguments[$0 + 1].split(separator: ",").map(String.init)) : nil
  }
  let report = Contention.run(quick: quick, rows: rows)
  Contention.printReport(report, quick: quick, busy: busyProcesses)
  Contention.record(report, into: &json)
  contention = report
}
print("checksum \(blackHole & 0xFF)")

if let jsonPath {
  let data = try JSONSerialization.data(
    withJSONObject: [
      "workloads": json, "scaling": growthJSON(growth), "busy_processes": busyProcesses,
    ],
    options: [.prettyPrinted, .sortedKeys])
  try data.write(to: URL(fileURLWithPath: jsonPath))
  print("wrote \(jsonPath)")
}
if let svgPath {
  let title =
    "RippleCompare\(quick ? " --quick" : ""): Ripple's time ÷ each peer's (log scale; left of 1× Ripple is faster)"
  let bars =
    chartBars(results, scaling: growth, more: scalingRows.map { ($0.name, $0.ratio) })
    + (contention.map(Contention.chartBars) ?? [])
  try svgChart(bars, title: title).write(toFile: svgPath, atomically: true, encoding: .utf8)
  print("wrote \(svgPath)")
}
// A wrong count (or a child that failed) is a correctness failure; timings never are.
if crossProcessFailed || contention?.failures.isEmpty == false { exit(1) }

extension String {
  func leftPadded(_ width: Int) -> String {
    count >= width ? " " + self : String(repeating: " ", count: width - count) + self
  }
}
