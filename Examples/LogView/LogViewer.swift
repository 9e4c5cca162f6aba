import Ripple

extension StoreKey where Value == [String] { static let pinned = StoreKey("pinned") }

/// What the screen shows: the lines that match the filter, coloured by level, with the
/// selection kept on its line (by line number) as lines arrive and the filter changes.
@MainActor
final class LogViewer {
  let file: LogFile
  let pins: Store
  let header: TextLabel
  let list: ListView
  let filter: TextInput
  let status: TextLabel
  /// Every line read, with its number: its identity in the list.
  private var lines: [(number: Int, text: String)] = []
  private var nextNumber = 1
  /// The most lines kept; older ones are dropped from the front.
  static let limit = 10_000

  init(
    file: LogFile, pins: Store, header: TextLabel, list: ListView, filter: TextInput,
    status: TextLabel
  ) {
    self.file = file
    self.pins = pins
    self.header = header
    self.list = list
    self.filter = filter
    self.status = status
  }

  /// Reads what the file appended (or all of it again, when it was rotated).
  func poll() {
    let read = file.read()
    if read.restarted { lines.removeAll() }
    guard read.restarted || !read.lines.isEmpty || lines.isEmpty else { return }
    for text in read.lines {
      lines.append((nextNumber, text.expandingTabs(every: 8)))
      nextNumber += 1
    }
    if lines.count > Self.limit { lines.removeFirst(lines.count - Self.limit) }
    refilter()
  }

  /// Shows the lines that contain the filter's text.
  func refilter() {
    let query = filter.text
    list.items = lines.filter { query.isEmpty || $0.text.contains(query) }.map { line in
      ListView.Item(spans: Self.spans(for: line.text), id: line.number)
    }
    showStatus()
  }

  /// Keys the filter left: the list's keys move the list, Enter pins.
  func handle(_ key: TerminalKey) {
    if key == .enter {
      pinSelection()
    } else {
      _ = list.handle(key)
    }
  }

  func pinSelection() {
    guard let line = list.selectedItem?.text else { return }
    pins.update([], for: .pinned) { pinned in pinned.append(line) }
    showStatus()
  }

  func showStatus() {
    let following = list.followsTail && list.selection == list.items.count - 1
    header.spans = [
      TextSpan(" \(file.path) ", style: CellStyle(attributes: .bold)),
      TextSpan(following ? "following" : "paused", style: CellStyle(attributes: .dim)),
    ]
    let pinned = pins.value(for: .pinned)?.count ?? 0
    status.text = "\(list.items.count) of \(lines.count) lines · \(pinned) pinned "
  }

  /// A line coloured by its level.
  static func spans(for text: String) -> [TextSpan] {
    let levels: [(String, CellStyle)] = [
      ("ERROR", CellStyle(foreground: .standard(.red), attributes: .bold)),
      ("WARN", CellStyle(foreground: .standard(.yellow))),
      ("DEBUG", CellStyle(attributes: .dim)),
    ]
    for (level, style) in levels {
      if let range = text.range(of: level) {
        return [
          TextSpan(String(text[..<range.lowerBound])), TextSpan(level, style: style),
          TextSpan(String(text[range.upperBound...])),
        ]
      }
    }
    return [TextSpan(text)]
  }
}
