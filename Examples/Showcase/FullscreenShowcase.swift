import Dispatch
import Observation
import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the status line shows. It is `@Observable`, not `@Invalidating`: the render loop
/// tracks what the status line reads while drawing, and redraws it when that changes.
@Observable final class Session {
  var frame = 0
  var lastKey = "none"
  var frames = 0
}

/// The status line, drawn from the session model.
final class StatusLine: HeadlessNode {
  let session: Session
  init(session: Session) {
    self.session = session
    super.init(name: "status")
  }
  override func draw(in canvas: inout TextCanvas) {
    let style = CellStyle(attributes: .dim)
    canvas.draw(
      "frame \(session.frame)/\(session.frames) · last key: \(session.lastKey)", at: .zero,
      style: style)
  }
}

/// The whole terminal: the showcase panel, the status line and the key help.
final class Fullscreen: HeadlessNode {
  override func layout() {
    var y = 1
    for node in subnodes {
      let height = node.intrinsicContentSize.height
      node.frame = Rect(x: 2, y: y, width: max(0, frame.size.width - 4), height: height)
      y += height + 1
    }
  }
}

/// The showcase as a full-screen terminal app: the tree is drawn in place by a render
/// loop on the main queue, keys act at once, and `q` or Ctrl-C restore the terminal.
@MainActor
final class FullscreenShowcase {
  let app: App
  let options: Options
  let terminal: Terminal
  let session = Session()
  let root = Fullscreen(name: "terminal")
  let help = Label(name: "help")
  let loop: RenderLoop<DispatchQueue>
  let backend: TerminalBackend<DispatchQueue>
  private var subscriptions = Set<AnyCancellable>()
  private var timer: DispatchSourceTimer?

  init(app: App, options: Options, terminal: Terminal) {
    self.app = app
    self.options = options
    self.terminal = terminal
    session.frames = options.frames
    help.text = "keys: d dark mode · p downloads · t tick · s features · q quit"
    let status = StatusLine(session: session)
    for node in [app.screen, status, help] { root.addSubnode(node) }
    // The panel keeps its own height; the status line and the help take one row each.
    status.frame.size.height = 1
    loop = RenderLoop(
      root: root, scheduler: DispatchQueue.main, minimumInterval: .milliseconds(16))
    backend = TerminalBackend(loop: loop, terminal: terminal)
  }

  /// Starts handling keys (and, unless `--interactive`, the scripted ticks); never returns.
  func run() -> Never {
    app.refreshStatus(frame: 0)
    backend.keys.sink { key in
      MainActor.assumeIsolated { self.handle(key) }
    }.store(in: &subscriptions)
    if !options.interactive { startScript() }
    dispatchMain()
  }

  private func handle(_ key: TerminalKey) {
    session.lastKey = key.description
    switch key {
    case .character("q"), .control("c"), .control("d"), .escape: quit()
    case .character("d"): app.store.update(false, for: .darkMode) { $0.toggle() }
    case .character("p"): app.store.update(false, for: .downloadsEnabled) { $0.toggle() }
    case .character("s"):
      if app.features.state == .active {
        app.features.detach()
      } else {
        try? app.features.attach(to: app.root)
      }
    case .character("t"):
      session.frame += 1
      app.ticks.send(session.frame)
    default: break
    }
    app.refreshStatus(frame: session.frame)
  }

  private func startScript() {
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
    timer.setEventHandler {
      MainActor.assumeIsolated {
        self.session.frame += 1
        script(frame: self.session.frame)
        self.app.refreshStatus(frame: self.session.frame)
        if self.session.frame >= self.options.frames { self.quit() }
      }
    }
    timer.resume()
    self.timer = timer
  }

  private func quit() -> Never {
    terminal.restore()
    print(
      "done: \(session.frame) frames; counter \(app.store[.counter] ?? 0), progress \(Int((app.store[.progress] ?? 0) * 100))%"
    )
    exit(0)
  }
}
