import Workloads

/// Issue 18's figures that are counts, not times (its timed workloads end the list in
/// main.swift).
enum RenderLoopBenchmarks {
  /// The figures that are counts, not times.
  static func printFigures() {
    print(
      "render_loop_coalesce: 10,000 sets across 1,000 nodes → \(RenderLoopWorkloads.passesPerTick()) pass(es) per tick"
    )
    let bytes = RenderLoopWorkloads.terminalFrameBytes()
    print(
      "terminal_frame_bytes: full repaint \(bytes.full) B · idle frame \(bytes.idle) B · one 10-cell label \(bytes.oneLabel) B"
    )
    let wide = RenderLoopWorkloads.terminalFrameBytesWide()
    print(
      "terminal_frame_bytes, wide text in the rows: idle frame \(wide.idle) B · one 10-column label of wide text \(wide.oneLabel) B"
    )
  }
}
