import Foundation
import Workloads

// How cost grows (issue 30 item 4, issue 32 item 6): each row at three sizes, with the
// ratio large ÷ small (flat ≈ 1). Rows measure themselves (GrowthWorkloads); this file
// lists them, runs them interleaved by size, and prints the table.

/// A scaling row: what one item is, the three sizes, and how to measure it.
struct GrowthRow {
  let name: String
  /// What one item is and what the size counts, for the table.
  let item: String
  let sizes: [Int]
  /// Nanoseconds per item at a size, measured for about `budget` nanoseconds.
  let measure: (_ size: Int, _ budget: Double) -> Double
  /// A hand-written limit at the same size, where there is one.
  var baseline: ((_ size: Int, _ budget: Double) -> Double)? = nil
}

/// A row's medians per size.
struct GrowthResult {
  let row: GrowthRow
  let ripple: [Double]
  let baseline: [Double]?
  var ratio: Double { ripple[ripple.count - 1] / ripple[0] }
}

/// Where the persisted-store row keeps its files (removed after the run).
let growthFolder = FileManager.default.temporaryDirectory
  .appendingPathComponent("RippleCompare-scaling-\(getpid())").path
nonisolated(unsafe) var growthFileNumber = 0

nonisolated(unsafe) let growthRows: [GrowthRow] = [
  GrowthRow(
    name: "scaling_subject_subscribe_cancel", item: "subscribe + cancel one sink, L live",
    sizes: [100, 10_000, 100_000],
    measure: { GrowthWorkloads.subjectSubscribeCancel(live: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_subject_cancel_all", item: "cancel all k sinks newest first, per cancel",
    sizes: [100, 10_000, 100_000],
    measure: { GrowthWorkloads.subjectCancelAll(count: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_subject_delivery", item: "a send, per delivery to N subscribers",
    sizes: [1, 100, 10_000],
    measure: { GrowthWorkloads.subjectDelivery(subscribers: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_merge_many", item: "MergeMany, a value into upstream 1 of n",
    sizes: [2, 100, 1_000],
    measure: { GrowthWorkloads.mergeMany(upstreams: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_collection_merge", item: "Collection.merge(), a value into 1 of n",
    sizes: [2, 100, 1_000],
    measure: { GrowthWorkloads.collectionMerge(upstreams: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_collection_combine_latest",
    item: "Collection.combineLatest(), a value into 1 of n", sizes: [2, 100, 1_000],
    measure: { GrowthWorkloads.collectionCombineLatest(upstreams: $0, budget: $1) },
    baseline: { GrowthWorkloads.arrayCopy(upstreams: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_collection_zip", item: "Collection.zip(), per upstream value of n",
    sizes: [2, 100, 1_000],
    measure: { GrowthWorkloads.collectionZip(upstreams: $0, budget: $1) },
    baseline: { GrowthWorkloads.arrayCopyPerUpstream(upstreams: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_flat_map", item: "flatMap, a value into 1 of k live inners",
    sizes: [1, 100, 10_000],
    measure: { GrowthWorkloads.flatMapInners(inners: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_store_stage", item: "in-memory Store.stage, K keys",
    sizes: [10, 10_000, 100_000],
    measure: { GrowthWorkloads.storeStage(keys: $0, budget: $1) }),
  GrowthRow(
    name: "scaling_store_persisted_flush", item: "persisted: one change + flush(), K keys",
    sizes: [10, 10_000, 100_000],
    measure: { keys, budget in
      growthFileNumber += 1
      return GrowthWorkloads.storePersistedFlush(
        keys: keys, path: "\(growthFolder)/scaling-\(growthFileNumber).json", budget: budget)
    }),
]

/// `--profile ROW:SIZE N`: runs one steady scaling row at one size, N operations, once
/// (for callgrind; the set-up at that size is the same for both values of N). Returns
/// whether `name` named a scaling row.
func profileGrowth(_ name: String, operations: Int) -> Bool {
  let parts = name.split(separator: ":")
  guard parts.count == 2, let size = Int(parts[1]),
    let row = growthRows.first(where: { $0.name == parts[0] })
  else { return false }
  GrowthWorkloads.fixedOperations = operations
  _ = row.measure(size, 0)
  return true
}

/// Runs the selected rows: each round measures every row at its three sizes, small to
/// large; the result is the median per size.
func runGrowth(quick: Bool, selected: (String) -> Bool) -> [GrowthResult] {
  let rows = growthRows.filter { selected($0.name) }
  if rows.isEmpty { return [] }
  let rounds = quick ? 1 : 3
  let budget = quick ? 3e6 : 40e6
  var samples = rows.map { $0.sizes.map { _ in [Double]() } }
  var baselineSamples = samples
  for _ in 0..<rounds {
    for (rowIndex, row) in rows.enumerated() {
      for (sizeIndex, size) in row.sizes.enumerated() {
        samples[rowIndex][sizeIndex].append(row.measure(size, budget))
        if let baseline = row.baseline {
          baselineSamples[rowIndex][sizeIndex].append(baseline(size, budget))
        }
      }
    }
  }
  try? FileManager.default.removeItem(atPath: growthFolder)
  return rows.enumerated().map { rowIndex, row in
    GrowthResult(
      row: row, ripple: samples[rowIndex].map(median),
      baseline: row.baseline == nil ? nil : baselineSamples[rowIndex].map(median))
  }
}

/// Prints the scaling table: ns per item at each size and large ÷ small.
func printGrowth(_ results: [GrowthResult], quick: Bool) {
  if results.isEmpty { return }
  func ns(_ value: Double) -> String {
    value >= 100_000
      ? String(format: "%.0f", value) : String(format: value < 10 ? "%.2f" : "%.1f", value)
  }
  func sizes(_ sizes: [Int]) -> String {
    sizes.map { $0 >= 1_000 ? "\($0 / 1_000)k" : "\($0)" }.joined(separator: "/")
  }
  print(
    "\nHow cost grows — ns per item at three sizes\(quick ? " (quick: 1 round)" : " (median of 3)")"
      + "; large÷small ≈ 1 is flat")
  print(
    "row".padding(toLength: 36, withPad: " ", startingAt: 0) + "sizes".leftPadded(14)
      + "small".leftPadded(11) + "medium".leftPadded(11) + "large".leftPadded(11)
      + "large÷small".leftPadded(13))
  for result in results {
    var line =
      result.row.name.padding(toLength: 36, withPad: " ", startingAt: 0)
      + sizes(result.row.sizes).leftPadded(14)
    for value in result.ripple { line += ns(value).leftPadded(11) }
    line += String(format: "%.2f", result.ratio).leftPadded(13)
    print(line + "   " + result.row.item)
    if let baseline = result.baseline {
      var limit = "  … hand-written array copy".padding(toLength: 50, withPad: " ", startingAt: 0)
      for value in baseline { limit += ns(value).leftPadded(11) }
      let ratios = zip(result.ripple, baseline).map { String(format: "%.1f", $0 / $1) }
      print(limit + "   Ripple ÷ copy: " + ratios.joined(separator: " / "))
    }
  }
}

/// The scaling figures for `--json`, under the top-level key `scaling`.
func growthJSON(_ results: [GrowthResult]) -> [String: [String: Double]] {
  var json: [String: [String: Double]] = [:]
  for result in results {
    var entry: [String: Double] = ["ratio_large_vs_small": result.ratio]
    for (label, index) in [("small", 0), ("medium", 1), ("large", 2)] {
      entry["\(label)_size"] = Double(result.row.sizes[index])
      entry["\(label)_ns"] = result.ripple[index]
      if let baseline = result.baseline { entry["\(label)_baseline_ns"] = baseline[index] }
    }
    json[result.row.name] = entry
  }
  return json
}
