import Foundation

// `RippleCompare --svg FILE`: the ratios as a self-contained SVG, written by hand. One
// bar per workload and peer (Ripple's time ÷ the peer's), on a log scale, drawn from 1×:
// left of 1× Ripple is faster. A second panel draws the scaling rows' large ÷ small.

/// One bar: a group (workload) label, the peer it compares with, and the ratio.
struct ChartBar {
  let group: String
  let peer: Int
  let ratio: Double
}

/// The peers, in legend order, with their colours.
let chartPeers: [(name: String, colour: String)] = [
  ("÷ OpenCombine", "#4e79a7"), ("÷ hand-written baseline", "#a0a0a0"),
  ("÷ AsyncStream", "#f28e2b"), ("÷ AsyncChannel", "#59a14f"),
  ("scaling: large ÷ small", "#b07aa1"),
]

/// The bars for a run's results and scaling figures (`more`: other rows' large ÷ small).
func chartBars(
  _ results: [(String, Result)], scaling: [GrowthResult], more: [(String, Double)] = []
) -> [ChartBar] {
  var bars: [ChartBar] = []
  for (name, result) in results {
    let ratios = [result.openCombine, result.baseline, result.asyncStream, result.asyncChannel]
    for (peer, value) in ratios.enumerated() {
      if let value, value > 0, result.ripple > 0 {
        bars.append(ChartBar(group: name, peer: peer, ratio: result.ripple / value))
      }
    }
  }
  for result in scaling where result.ratio.isFinite && result.ratio > 0 {
    bars.append(ChartBar(group: result.row.name, peer: 4, ratio: result.ratio))
  }
  for (name, ratio) in more where ratio.isFinite && ratio > 0 {
    bars.append(ChartBar(group: name, peer: 4, ratio: ratio))
  }
  return bars
}

/// Escapes text for SVG.
func xmlEscaped(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;")
}

/// The chart as an SVG document.
func svgChart(_ bars: [ChartBar], title: String) -> String {
  let labelWidth = 290.0
  let plotWidth = 560.0
  let barHeight = 11.0
  let groupGap = 8.0
  let top = 70.0
  let ratios = bars.map(\.ratio)
  let low = floor(log10(min(ratios.min() ?? 1, 1) * 0.9))
  let high = ceil(log10(max(ratios.max() ?? 1, 1) * 1.1))
  let decades = max(high - low, 1)
  func x(_ ratio: Double) -> Double {
    labelWidth + (log10(ratio) - low) / decades * plotWidth
  }
  var groups: [(String, [ChartBar])] = []
  for bar in bars {
    if groups.last?.0 == bar.group {
      groups[groups.count - 1].1.append(bar)
    } else {
      groups.append((bar.group, [bar]))
    }
  }
  var body = ""
  var y = top
  for (group, groupBars) in groups {
    let groupHeight = Double(groupBars.count) * barHeight
    body +=
      "<text x=\"\(labelWidth - 8)\" y=\"\(y + groupHeight / 2 + 4)\" text-anchor=\"end\">"
      + "\(xmlEscaped(group))</text>\n"
    for bar in groupBars {
      let from = x(1)
      let to = x(bar.ratio)
      let left = min(from, to)
      let width = max(abs(to - from), 1)
      body +=
        "<rect x=\"\(fmt(left))\" y=\"\(fmt(y + 1))\" width=\"\(fmt(width))\" "
        + "height=\"\(fmt(barHeight - 2))\" fill=\"\(chartPeers[bar.peer].colour)\"/>\n"
      let label = ratioLabel(bar.ratio) + "×"
      let anchorRight = bar.ratio >= 1
      body +=
        "<text x=\"\(fmt(anchorRight ? to + 3 : to - 3))\" y=\"\(fmt(y + barHeight - 2))\" "
        + "class=\"v\" text-anchor=\"\(anchorRight ? "start" : "end")\">\(label)</text>\n"
      y += barHeight
    }
    y += groupGap
  }
  let bottom = y
  var axis = ""
  for decade in 0...Int(decades) {
    let value = pow(10, low + Double(decade))
    let position = labelWidth + Double(decade) / decades * plotWidth
    let label = value >= 1 ? String(format: "%.0f×", value) : "\(value)×"
    axis +=
      "<line x1=\"\(fmt(position))\" y1=\"\(fmt(top - 6))\" x2=\"\(fmt(position))\" "
      + "y2=\"\(fmt(bottom))\" stroke=\"\(value == 1 ? "#333" : "#ddd")\"/>\n"
      + "<text x=\"\(fmt(position))\" y=\"\(fmt(top - 10))\" text-anchor=\"middle\" "
      + "class=\"v\">\(label)</text>\n"
  }
  var legend = ""
  var legendX = 10.0
  for peer in chartPeers {
    legend +=
      "<rect x=\"\(fmt(legendX))\" y=\"34\" width=\"10\" height=\"10\" fill=\"\(peer.colour)\"/>"
      + "<text x=\"\(fmt(legendX + 14))\" y=\"43\">\(xmlEscaped(peer.name))</text>\n"
    legendX += 14 + Double(peer.name.count) * 7 + 16
  }
  let width = labelWidth + plotWidth + 60
  let height = bottom + 16
  return """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width))" height="\(fmt(height))" \
    viewBox="0 0 \(fmt(width)) \(fmt(height))" font-family="sans-serif" font-size="12">
    <style>.v { font-size: 10px; fill: #444 }</style>
    <rect width="100%" height="100%" fill="white"/>
    <text x="10" y="20" font-size="14" font-weight="bold">\(xmlEscaped(title))</text>
    \(legend)\(axis)\(body)</svg>

    """
}

/// A ratio with two significant digits below 1 (0.0043), two decimals below 10, none above.
func ratioLabel(_ ratio: Double) -> String {
  String(format: ratio < 1 ? "%.2g" : ratio < 10 ? "%.2f" : "%.0f", ratio)
}

/// A coordinate with one decimal.
func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
