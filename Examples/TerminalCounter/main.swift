import Ripple

extension StoreKey where Value == Int { static let count = StoreKey("count") }

final class Counter: HeadlessNode {
  @Invalidating(.display) var count = 0
  override func draw(in canvas: inout TextCanvas) {
    canvas.drawBox(in: bounds, style: CellStyle(foreground: .standard(.cyan)))
    let rows = bounds.insetBy(dx: 2, dy: 1).splitRows([.fill(1), .fixed(1)])
    canvas.draw("count: \(count)", in: rows[0], alignment: .center)
    canvas.draw("space adds one · q quits", in: rows[1], alignment: .center)
  }
}

let store = try Store(persistence: .defaultFile(app: "ripple-counter"))
let counter = Counter()
counter.count = store[.count] ?? 0
let app = TerminalApp.openOrExit(root: counter)  // without a terminal: one line, status 1
app.onKey = { key in if key == .character(" ") { counter.count += 1 } }
app.willQuit = { store.stage(counter.count, for: .count) }
app.run()
