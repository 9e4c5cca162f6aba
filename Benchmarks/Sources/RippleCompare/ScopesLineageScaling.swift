import Foundation
import Workloads

/// Issue 32's scaling rows for Scopes and Lineage: one operation at three sizes, the
/// median of `rounds` runs at each, and the ratio large ÷ small, which is about 1 when the
/// cost per unit does not grow with the structure.
enum ScopesLineageScaling {
  /// One scaling row: what one unit is, and the nanoseconds per unit at each size.
  struct Row {
    let name: String
    let unit: String
    let sizes: [Int]
    var nanoseconds: [Double]
    var ratio: Double { nanoseconds[2] / nanoseconds[0] }
  }

  /// The rows' names, for `--only`.
  static let names = [
    "scope_detach_one_of_n", "scope_deactivate_sinks", "scope_deactivate_own_subjects",
    "scope_chain_attach", "scope_chain_detach", "scope_chain_release",
    "lineage_chain_cold_read", "lineage_chain_root_write", "lineage_chain_release",
  ]

  /// Measures the selected rows. `--quick` uses sizes ten times smaller;
  /// `--scaling-sizes A,B,C` and `--scaling-depths A,B,C` set them (say, to compare with
  /// a build whose chains overflow the stack at the usual depths).
  static func run(
    quick: Bool, rounds: Int, arguments: [String], selected: (String) -> Bool
  ) -> [Row] {
    func option(_ option: String, _ standard: [Int]) -> [Int] {
      guard let index = arguments.firstIndex(of: option), arguments.indices.contains(index + 1)
      else { return standard }
      let values = arguments[index + 1].split(separator: ",").compactMap { Int($0) }
      return values.count == 3 ? values : standard
    }
    let sizes = option("--scaling-sizes", quick ? [100, 1_000, 10_000] : [1_000, 10_000, 100_000])
    let depths = option(
      "--scaling-depths", quick ? [1_000, 10_000, 100_000] : [10_000, 100_000, 1_000_000])
    let rounds = max(1, quick ? 1 : rounds / 3)
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    /// The median at each size, after one run at that size that is not counted (it pays
    /// for the heap growing to the size).
    func perSize(_ sizes: [Int], _ body: (Int) -> Double) -> [Double] {
      sizes.map { size in
        _ = body(size)
        return median((0..<rounds).map { _ in body(size) })
      }
    }
    var rows: [Row] = []
    if selected("scope_detach_one_of_n") {
      rows.append(
        Row(
          name: "scope_detach_one_of_n", unit: "detach", sizes: sizes,
          nanoseconds: perSize(sizes, ScalingWorkloads.scopeDetachOneOfN)))
    }
    if selected("scope_deactivate_sinks") {
      rows.append(
        Row(
          name: "scope_deactivate_sinks", unit: "node", sizes: sizes,
          nanoseconds: perSize(sizes) {
            ScalingWorkloads.scopeDeactivateWithSinks($0, sharedSubject: true)
          }))
    }
    if selected("scope_deactivate_own_subjects") {
      rows.append(
        Row(
          name: "scope_deactivate_own_subjects", unit: "node", sizes: sizes,
          nanoseconds: perSize(sizes) {
            ScalingWorkloads.scopeDeactivateWithSinks($0, sharedSubject: false)
          }))
    }
    let chainRows = ["scope_chain_attach", "scope_chain_detach", "scope_chain_release"]
    if chainRows.contains(where: selected) {
      let figures = depths.map { depth in
        _ = ScalingWorkloads.scopeChain(depth)
        let runs = (0..<rounds).map { _ in ScalingWorkloads.scopeChain(depth) }
        return [
          median(runs.map(\.attach)), median(runs.map(\.detach)), median(runs.map(\.release)),
        ]
      }
      for (index, name) in chainRows.enumerated() where selected(name) {
        rows.append(
          Row(name: name, unit: "level", sizes: depths, nanoseconds: figures.map { $0[index] }))
      }
    }
    let lineageRows = [
      "lineage_chain_cold_read", "lineage_chain_root_write", "lineage_chain_release",
    ]
    if lineageRows.contains(where: selected) {
      let figures = depths.map { depth in
        _ = ScalingWorkloads.lineageChain(depth)
        let runs = (0..<rounds).map { _ in ScalingWorkloads.lineageChain(depth) }
        return [
          median(runs.map(\.coldRead)), median(runs.map(\.rootWrite)), median(runs.map(\.release)),
        ]
      }
      for (index, name) in lineageRows.enumerated() where selected(name) {
        rows.append(
          Row(name: name, unit: "level", sizes: depths, nanoseconds: figures.map { $0[index] }))
      }
    }
    return rows
  }

  /// Prints the rows as a table and adds them to `json`.
  static func report(_ rows: [Row], into json: inout [String: [String: Double]]) {
    guard !rows.isEmpty else { return }
    func format(_ value: Double) -> String {
      String(format: value < 10 ? "%.2f" : "%.1f", value)
    }
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
    print("scaling (issue 32) · ns per unit at three sizes · large ÷ small should be about 1")
    for row in rows {
      let sizes = row.sizes.map { $0.formatted() }.joined(separator: " / ")
      var line = row.name.padding(toLength: 30, withPad: " ", startingAt: 0)
      line += "per \(row.unit) at \(sizes):".padding(toLength: 42, withPad: " ", startingAt: 0)
      line += row.nanoseconds.map { pad(format($0), 9) }.joined()
      line += "   ×" + format(row.ratio)
      print(line)
      var entry: [String: Double] = ["ratio_large_small": row.ratio]
      for (size, value) in zip(row.sizes, row.nanoseconds) { entry["ripple_ns_\(size)"] = value }
      json[row.name] = entry
    }
  }
}
