import Dispatch
import Invalidation
import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A full-screen terminal app in one object: it opens the ``Terminal``, runs a
/// `RenderLoop` on the main queue with a ``TerminalBackend``, routes keys, and quits on
/// `q` or Ctrl-C — calling ``willQuit`` first, so that the app can save its state.
///
///     let counter = Counter()                       // a HeadlessNode
///     let app = try TerminalApp(root: counter)
///     app.onKey = { key in if key == .character(" ") { counter.count += 1 } }
///     app.willQuit = { print("saving…") }
///     app.run()                                     // never returns
///
/// ## Keys
/// Each key is offered, in order, to ``focus`` (a ``KeyResponder`` such as a
/// ``TextInput`` or a ``ListView``), then checked against ``quitKeys``, then passed to
/// ``onKey``. So while a text input has the focus, `q` types a `q`.
///
/// ## Quitting
/// ``quit(status:)`` (which a quit key calls) runs ``willQuit`` and then restores the
/// terminal and exits. Ctrl-C (SIGINT) quits the same way with status 0. SIGTERM, SIGHUP
/// and SIGQUIT restore the terminal at once (so that a slow save never holds the screen),
/// then run ``willQuit`` and exit with status 128 + the signal number. If the main queue
/// is busy, a signal still ends the process after ``quitTimeout``. The end of input (the
/// terminal went away) quits too. Everything registered with `atexit` runs as the process
/// exits: KeyedStore flushes every open persisted store there, so a staged setting is
/// never lost to quitting.
///
/// # Thread safety
/// Main-actor isolated: the render loop, the keys and the handlers all run on the main
/// queue, as does the node tree.
@MainActor
public final class TerminalApp {
  /// The tree drawn full-screen; resized to the terminal.
  public let root: HeadlessNode
  /// The loop that renders the tree, on the main queue.
  public let loop: RenderLoop<DispatchQueue>
  /// The backend that writes each pass's changes to the terminal.
  public let backend: TerminalBackend<DispatchQueue>
  /// The terminal, or `nil` for an app drawn through a writer of its own (tests).
  public let terminal: Terminal?

  /// The responder offered every key first, such as a ``TextInput`` while the user types
  /// into it; `nil` (the default) sends every key to ``quitKeys`` and ``onKey``.
  public var focus: (any KeyResponder)?

  /// The keys that quit (through ``quit(status:)``) when the focus does not take them:
  /// `q` by default. Ctrl-C always quits (it is a signal, not a key).
  public var quitKeys: Set<TerminalKey> = [.character("q")]

  /// Called on the main queue with each key that neither the focus nor ``quitKeys`` took.
  public var onKey: ((TerminalKey) -> Void)?

  /// Called on the main queue once, as the app quits for any reason, before the process
  /// exits: the place to save state. Runs before the terminal is restored when the app
  /// quits by a key or Ctrl-C.
  public var willQuit: (() -> Void)?

  /// How long a signal waits for the main queue to run ``willQuit`` before the process
  /// exits anyway: two seconds.
  public nonisolated static let quitTimeout: Duration = .seconds(2)

  private var isQuitting = false
  private var subscriptions = Set<AnyCancellable>()

  /// Opens the terminal and shows `root` on it, full-screen. Nothing is drawn until
  /// ``run()`` gives the main queue to the app.
  ///
  /// - Parameters:
  ///   - root: The tree to draw; resized to the terminal, and on every resize.
  ///   - minimumInterval: The shortest time between two frames: 16 ms (60 a second) by
  ///     default.
  ///   - reportsMouse: Whether mouse presses, drags and the wheel arrive as keys (see
  ///     ``Terminal/reportsMouse``); off by default.
  /// - Throws: What ``Terminal/open(input:output:)`` throws, such as
  ///   ``TerminalError/notATerminal(descriptor:)`` when output is piped.
  public convenience init(
    root: HeadlessNode,
    minimumInterval: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(16),
    reportsMouse: Bool = false
  ) throws(TerminalError) {
    let terminal = try Terminal.open()
    terminal.reportsMouse = reportsMouse
    self.init(root: root, terminal: terminal, minimumInterval: minimumInterval)
  }

  /// Opens the terminal and shows `root` on it, as ``init(root:minimumInterval:reportsMouse:)``
  /// does, or — where there is no terminal (input from `/dev/null`, output piped, CI) —
  /// writes one line saying why to standard error and exits with status 1: what a
  /// command-line program's `main` does with that error anyway, without a top-level
  /// `try` that crashes with a register dump.
  ///
  ///     let app = TerminalApp.openOrExit(root: counter)
  ///
  /// - Parameters:
  ///   - root: The tree to draw; resized to the terminal, and on every resize.
  ///   - reportsMouse: Whether mouse presses, drags and the wheel arrive as keys.
  /// - Returns: The app, with the terminal open.
  public static func openOrExit(root: HeadlessNode, reportsMouse: Bool = false) -> TerminalApp {
    do {
      return try TerminalApp(root: root, reportsMouse: reportsMouse)
    } catch {
      let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") }
      let line = "\(program ?? "app"): \(error)\n"
      _ = writeAll(Array(line.utf8), to: STDERR_FILENO)
      exit(1)
    }
  }

  /// Shows `root` full-screen on a terminal that is already open.
  ///
  /// - Parameters:
  ///   - root: The tree to draw; resized to the terminal, and on every resize.
  ///   - terminal: An open terminal; the app restores it when it quits.
  ///   - minimumInterval: The shortest time between two frames: 16 ms by default.
  public init(
    root: HeadlessNode, terminal: Terminal,
    minimumInterval: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(16)
  ) {
    self.root = root
    self.terminal = terminal
    loop = RenderLoop(root: root, scheduler: .main, minimumInterval: minimumInterval)
    backend = TerminalBackend(loop: loop, terminal: terminal)
    terminal.interruptHandler = { [weak self] signal in
      // The terminal is already restored. Quit on the main queue, where the app's state
      // lives, or exit anyway if the main queue never gets to it.
      let status: Int32 = signal == SIGINT ? 0 : 128 + signal
      guard let self else { exit(status) }
      let timeout = Int(Self.quitTimeout.components.seconds)
      DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) { exit(status) }
      DispatchQueue.main.async {
        MainActor.assumeIsolated { () -> Void in self.quit(status: status) }
      }
    }
  }

  /// Draws `root` through `writer` instead of a terminal, for tests: keys come only
  /// through ``handle(_:)``.
  init(root: HeadlessNode, writer: TerminalWriter) {
    self.root = root
    terminal = nil
    loop = RenderLoop(root: root, scheduler: .main)
    backend = TerminalBackend(loop: loop, writer: writer)
  }

  /// Starts the app: keys and frames flow on the main queue until the app quits. Never
  /// returns; call it last, from the main thread (top-level code in `main.swift`).
  public func run() -> Never {
    backend.keys.sink(
      receiveCompletion: { _ in
        // The keys end when the input ends (EOF, or a terminal that hung up), when nothing
        // could quit the app any more, and when the terminal is restored by a signal,
        // whose handler quits with the signal's status.
        MainActor.assumeIsolated { if self.terminal?.isOpen ?? false { self.quit() } }
      },
      receiveValue: { key in MainActor.assumeIsolated { self.handle(key) } }
    ).store(in: &subscriptions)
    dispatchMain()
  }

  /// Routes a key as a typed key is routed: to ``focus``, then ``quitKeys``, then
  /// ``onKey``.
  ///
  /// - Parameter key: The key.
  public func handle(_ key: TerminalKey) {
    if let focus, focus.handle(key) { return }
    if quitKeys.contains(key) {
      quit()
    }
    onKey?(key)
  }

  /// Quits: runs ``willQuit`` (once, however many times this is called), stops the
  /// render loop, restores the terminal, and exits the process with `status`.
  ///
  /// - Parameter status: The exit status; 0 by default.
  public func quit(status: Int32 = 0) -> Never {
    finish()
    exit(status)
  }

  /// Keeps `cancellable` (a timer, say) until the app quits.
  func keepUntilQuit(_ cancellable: AnyCancellable) {
    cancellable.store(in: &subscriptions)
  }

  /// Runs ``willQuit`` once and gives the terminal back.
  private func finish() {
    if !isQuitting {
      isQuitting = true
      willQuit?()
    }
    loop.stop()
    terminal?.restore()
  }
}
