import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// LogView: follows a log file as `tail -f` does, filters it live, colours its levels, and
// keeps pinned lines in a store file — on the public API only, with no subclass.
//
//   swift run LogView app.log [--pins pins.json]
//
// Type to filter · Up/Down/Page Up/Page Down move (following pauses; End resumes) ·
// Left/Right scroll long lines · Enter pins the selected line · Escape or Ctrl-C quits.

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  print("usage: LogView FILE [--pins PINS.json]")
  exit(2)
}
let path = arguments[1]
let pinsPath =
  arguments.firstIndex(of: "--pins").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
  } ?? path + ".pins.json"

let pins: Store
do {
  pins = try Store(persistence: .file(path: pinsPath))
} catch {
  print("LogView: \(error)")
  exit(1)
}

let header = TextLabel()
let list = ListView(placeholder: "waiting for lines in \(path)")
list.followsTail = true
list.scrollsHorizontally = true
let filter = TextInput(placeholder: "type to filter")
let status = TextLabel(alignment: .trailing)
let screen = StackView(.vertical)
screen.addSubnode(header, length: .fixed(1))
screen.addSubnode(list)
screen.addSubnode(filter, length: .fixed(1))
screen.addSubnode(status, length: .fixed(1))

let app = TerminalApp.openOrExit(root: screen)
let viewer = LogViewer(
  file: LogFile(path: path), pins: pins, header: header, list: list, filter: filter,
  status: status)
app.focus = filter  // typed keys filter; the keys it leaves move the list
app.quitKeys = [.escape]
app.onKey = { key in viewer.handle(key) }
filter.onChange = { _ in viewer.refilter() }
list.onSelectionChange = { _ in viewer.showStatus() }
app.every(.milliseconds(200)) { viewer.poll() }
viewer.poll()
app.willQuit = {
  do { try pins.flush() } catch { print("LogView: pins not saved: \(error)") }
}
app.run()
