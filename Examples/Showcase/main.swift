import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Ripple's showcase: every module working together in one headless app.
//
// - Scopes: a RootScope with feature scopes that activate and deactivate.
// - KeyedStore: staged values drive the features and the screen.
// - Lineage: a base theme and a dark descendant that overrides a few values.
// - Invalidation: @Invalidating nodes, re-rendered by the coalescing render pass only
//   when something changed; in a terminal, a RenderLoop draws them in place through the
//   terminal backend, and an @Observable session model redraws the status line.
// - ReactiveCore: publishers and subscriptions connect all of it.

let options = Options.parse(CommandLine.arguments)
let app = try App()

/// What happens on each frame of the scripted run.
@MainActor
func script(frame: Int) {
  switch frame {
  case 3: app.store.stage(true, for: .downloadsEnabled)
  case 9: app.store.stage(true, for: .darkMode)
  case 12: app.store.stage(false, for: .downloadsEnabled)
  case 15: app.store.stage(true, for: .downloadsEnabled)
  case 18: app.store.stage(false, for: .darkMode)
  case 21: app.features.detach()
  case 23: try? app.features.attach(to: app.root)
  default: break
  }
  if frame != 6 && frame != 7 { app.ticks.send(frame) }  // frames 6-7: nothing happens
}

@MainActor
func render(frame: Int) {
  app.refreshStatus(frame: frame)
  let report = app.screen.renderPass()
  var lines = app.screen.snapshot().lines
  if options.color {
    lines = lines.map { "\u{1B}[\(app.accent)m" + $0 + "\u{1B}[0m" }
  }
  let status =
    "frame \(frame)/\(options.frames) · nodes \(report.nodes) · laid out \(report.laidOut) · drawn \(report.drawn)"
  if options.isTerminal { print("\u{1B}[H\u{1B}[2J", terminator: "") }
  print(lines.joined(separator: "\n"))
  print(status)
  if !options.isTerminal { print() }
}

if options.isTerminal, let terminal = try? Terminal.open() {
  // A real terminal: full screen, drawn in place, keys act at once.
  FullscreenShowcase(app: app, options: options, terminal: terminal).run()
} else if options.interactive {
  print("keys: d = dark mode, p = downloads, t = tick, s = toggle features, q = quit (then Enter)")
  var frame = 0
  render(frame: frame)
  while let line = readLine() {
    frame += 1
    switch line.trimmingCharacters(in: .whitespaces) {
    case "q": exit(0)
    case "d": app.store.update(false, for: .darkMode) { $0.toggle() }
    case "p": app.store.update(false, for: .downloadsEnabled) { $0.toggle() }
    case "s":
      if app.features.state == .active {
        app.features.detach()
      } else {
        try? app.features.attach(to: app.root)
      }
    default: app.ticks.send(frame)
    }
    render(frame: frame)
  }
} else {
  for frame in 1...options.frames {
    script(frame: frame)
    render(frame: frame)
    if options.isTerminal { usleep(250_000) }
  }
  print(
    "done: \(options.frames) frames; counter \(app.store[.counter] ?? 0), progress \(Int((app.store[.progress] ?? 0) * 100))%"
  )
}
