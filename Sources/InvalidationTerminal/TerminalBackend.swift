import Invalidation
import ReactiveCore

/// Shows a `RenderLoop`'s tree on an ANSI terminal: after each pass it composites the
/// tree, compares it with what the terminal shows, and writes only the cells that
/// changed (see ``FrameBuffer``).
///
///     let terminal = try Terminal.open()
///     let loop = RenderLoop(root: screen, scheduler: DispatchQueue.main)
///     let backend = TerminalBackend(loop: loop, terminal: terminal)
///     let keys = backend.keys.sink { key in if key == .character("q") { terminal.restore(); exit(0) } }
///     dispatchMain()
///
/// An idle frame writes nothing; a pass that changed one 10-cell label writes one cursor
/// move and ten characters (plus a style, if the label has one). Tests pass a
/// ``TerminalWriter`` of their own to count the bytes.
///
/// # Thread safety
/// Confined to the loop's scheduler, like the tree: frames are written there, and keys
/// and resizes from a ``Terminal`` are delivered there.
public final class TerminalBackend<S: Scheduler> {
  /// The loop whose passes are shown.
  public let loop: RenderLoop<S>
  /// Where the bytes go.
  public let writer: TerminalWriter
  /// Keys typed in the terminal, delivered on the loop's scheduler; empty without one.
  public let keys: AnyPublisher<TerminalKey, Never>

  private var buffer = FrameBuffer()
  private var subscriptions = Set<AnyCancellable>()

  /// Bytes written so far.
  public private(set) var bytesWritten = 0
  /// Bytes the last frame wrote (zero for an idle frame).
  public private(set) var lastFrameBytes = 0
  /// Frames presented so far, idle ones included.
  public private(set) var framesPresented = 0

  /// Shows `loop`'s passes through `writer`, starting with a full frame on the next pass.
  ///
  /// - Parameters:
  ///   - loop: The loop to follow.
  ///   - writer: Where the bytes go.
  public init(loop: RenderLoop<S>, writer: TerminalWriter) {
    self.loop = loop
    self.writer = writer
    keys = Empty().eraseToAnyPublisher()
    follow()
  }

  /// Shows `loop`'s passes on `terminal`: sizes the root to the terminal, re-lays it out
  /// on every resize (SIGWINCH) and resume (SIGCONT, see ``Terminal/resumes``) with a
  /// full repaint, and delivers its keys on the loop's scheduler.
  ///
  /// - Parameters:
  ///   - loop: The loop to follow; its root is resized to fill the terminal.
  ///   - terminal: An open terminal.
  public init(loop: RenderLoop<S>, terminal: Terminal) {
    self.loop = loop
    writer = terminal.writer
    keys = terminal.keys.receive(on: loop.scheduler).eraseToAnyPublisher()
    loop.root.frame.size = terminal.size.clamped(to: TextCanvas.maximumSize)
    terminal.resizes.merge(with: terminal.resumes).receive(on: loop.scheduler).sink {
      [weak self] size in self?.resize(to: size)
    }.store(in: &subscriptions)
    follow()
  }

  private func follow() {
    loop.reports.sink { [weak self] _ in self?.present() }.store(in: &subscriptions)
    loop.setNeedsPass()
  }

  /// Writes what changed since the last frame; called after each pass. If the writer
  /// reports that the frame was cut short (see ``TerminalWriter/tryWrite(_:)``), the
  /// screen may show part of it, so the next frame repaints in full.
  ///
  /// - Returns: The number of bytes written (zero if nothing changed).
  @discardableResult
  public func present() -> Int {
    let bytes = buffer.update(to: loop.root.snapshot())
    if !writer.tryWrite(bytes) { buffer.invalidate() }
    framesPresented += 1
    lastFrameBytes = bytes.count
    bytesWritten += bytes.count
    return bytes.count
  }

  /// Resizes the root (which re-lays it out) and repaints the whole screen on the next
  /// pass, since the terminal may have reflowed what it showed.
  ///
  /// - Parameter size: The terminal's new size; a negative side is taken as zero and a
  ///   side past `TextCanvas.maximumSize` as its maximum.
  public func resize(to size: Size) {
    loop.root.frame.size = size.clamped(to: TextCanvas.maximumSize)
    repaint()
  }

  /// Repaints every cell on the next pass, for a screen something else drew on.
  public func repaint() {
    buffer.invalidate()
    loop.setNeedsPass()
  }
}
