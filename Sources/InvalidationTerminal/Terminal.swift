import Dispatch
import Invalidation
import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal, taken over for a full-screen app: raw-mode input (keys arrive
/// at once, unechoed), the alternate screen, a hidden cursor — and all of it undone by
/// ``restore()``, at exit, on SIGINT, SIGQUIT, SIGTERM and SIGHUP, and on a crash signal.
///
///     let terminal = try Terminal.open()
///     defer { terminal.restore() }
///     terminal.writer.write(Array("hello".utf8))
///
/// Ctrl-C and Ctrl-\ stay signals (the terminal keeps `ISIG`): the default
/// ``interruptHandler`` restores the terminal and exits with status 128 + the signal
/// number, so a stuck app still gives the terminal back. Crash signals (SIGSEGV, SIGBUS,
/// SIGILL, SIGTRAP, SIGABRT, SIGFPE) restore with async-signal-safe calls only, on memory
/// prepared in advance, then re-raise.
///
/// Job control works as in any terminal program: Ctrl-Z (SIGTSTP) restores the terminal
/// and stops the process; `fg` (SIGCONT) puts the terminal back in raw mode on the
/// alternate screen and publishes on ``resumes``, so that ``TerminalBackend`` repaints in
/// full.
///
/// Signals are caught with handlers, never ignored, so a child process started while the
/// terminal is open gets the default actions; a signal the terminal found ignored at open
/// (SIGHUP under `nohup`) is left ignored; and ``restore()`` puts back exactly the
/// actions it found.
///
/// A terminal that stops reading (a stalled SSH connection) never blocks for long: a
/// write that makes no progress for ``writeTimeout`` is abandoned (the writer reports
/// it, and ``TerminalBackend`` repaints in full next frame), and ``restore()`` waits for
/// a frame in flight at most that long. End of input (EOF, or EIO from a hung-up
/// terminal) finishes ``keys`` once.
///
/// # Thread safety
/// Thread-safe. Keys, sizes and resumes are published on an internal queue;
/// ``TerminalBackend`` hops them to its loop's scheduler. ``writer`` may be used from any
/// thread; after ``restore()`` it writes nothing, so a late frame cannot land on the
/// restored screen. One lock guards `isRestored`, `interruptHandler` and the sources, and
/// is never held while writing; a second lock, with a bounded wait, orders writes so that
/// a frame and the restore's last write never interleave.
public final class Terminal: @unchecked Sendable {
  /// The descriptor keys are read from.
  public let input: Int32
  /// The descriptor frames are written to.
  public let output: Int32

  /// How long a write may make no progress before it is abandoned: one second. A frame
  /// cut short this way is repainted in full; ``restore()`` waits at most this long for
  /// a frame in flight, and at most this long for its own write.
  public static let writeTimeout: Duration = .seconds(1)

  /// What the lock guards.
  private struct State {
    /// Whether ``restore()`` has run.
    var isRestored = false
    /// Whether SIGTSTP restored the terminal, until SIGCONT takes it over again.
    var isSuspended = false
    /// The interrupt handler.
    var handler: (@Sendable (Int32) -> Void)?
    /// The signal and input sources, cancelled on restore.
    var sources: [any DispatchSourceProtocol] = []
    /// The signal actions found at open, put back on restore.
    var savedActions: [(signal: Int32, action: sigaction)] = []
    /// Whether mouse reporting is on.
    var reportsMouse = false
  }

  /// The terminal's state behind its lock, one per terminal.
  private let state = LockedBox(State())
  /// Orders writes; never taken while `state`'s lock is held.
  private let writeLock = WriteLock()
  private let saved: termios
  /// A descriptor of its own for `output`'s terminal, non-blocking (so that writes can
  /// give up) without changing the flags of the descriptor the shell shares.
  private let writeDescriptor: Int32
  private let queue = DispatchQueue(label: "org.ripple.terminal")
  private let keySubject = PassthroughSubject<TerminalKey, Never>()
  private let sizeSubject = PassthroughSubject<Size, Never>()
  private let resumeSubject = PassthroughSubject<Size, Never>()

  /// Takes over the terminal on `input` and `output`.
  ///
  /// - Parameters:
  ///   - input: The descriptor to read keys from; standard input by default.
  ///   - output: The descriptor to draw on; standard output by default.
  /// - Returns: The open terminal, already in raw mode on the alternate screen.
  /// - Throws: ``TerminalError/notATerminal(descriptor:)`` if either is not a terminal,
  ///   ``TerminalError/alreadyOpen`` if another `Terminal` is open,
  ///   ``TerminalError/attributesUnavailable(errno:)`` if raw mode cannot be set.
  public static func open(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO
  ) throws(TerminalError) -> Terminal {
    for descriptor in [input, output] where isatty(descriptor) == 0 {
      throw .notATerminal(descriptor: descriptor)
    }
    var attributes = termios()
    guard tcgetattr(input, &attributes) == 0 else { throw .attributesUnavailable(errno: errno) }
    let terminal = Terminal(
      input: input, output: output, saved: attributes,
      writeDescriptor: nonBlockingDescriptor(for: output))
    try ActiveTerminal.claim(terminal)
    do throws(TerminalError) {
      try terminal.enterRawMode()
    } catch {
      ActiveTerminal.release(terminal)
      if terminal.writeDescriptor != output { close(terminal.writeDescriptor) }
      throw error
    }
    _ = terminal.write(ANSI.enterFullScreen)
    terminal.installSignalHandlers()
    terminal.startReading()
    return terminal
  }

  private init(input: Int32, output: Int32, saved: termios, writeDescriptor: Int32) {
    self.input = input
    self.output = output
    self.saved = saved
    self.writeDescriptor = writeDescriptor
  }

  deinit {
    if writeDescriptor != output { close(writeDescriptor) }
  }

  /// A new, non-blocking, close-on-exec descriptor for the terminal `output` is open on,
  /// or `output` itself if none can be opened.
  private static func nonBlockingDescriptor(for output: Int32) -> Int32 {
    let flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
    #if canImport(Glibc)
      let openFile = { (path: UnsafePointer<CChar>) in Glibc.open(path, flags) }
    #else
      let openFile = { (path: UnsafePointer<CChar>) in Darwin.open(path, flags) }
    #endif
    if let name = ttyname(output) {
      let descriptor = openFile(name)
      if descriptor >= 0 { return descriptor }
    }
    let descriptor = openFile("/proc/self/fd/\(output)")
    return descriptor >= 0 ? descriptor : output
  }

  /// The terminal's size in cells (80×24 if it cannot be read), capped at
  /// `TextCanvas.maximumSize` (2048×1024): a terminal that reports 65535×65535, as some
  /// SSH clients do, gets frames of two million cells at most, not four billion.
  public var size: Size {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
    else { return Size(width: 80, height: 24) }
    return Size(width: Int(window.ws_col), height: Int(window.ws_row))
      .clamped(to: TextCanvas.maximumSize)
  }

  /// Keys as they are typed, on an internal queue; finishes on ``restore()``, or once at
  /// the end of input (EOF, or EIO from a terminal that hung up).
  public var keys: AnyPublisher<TerminalKey, Never> { keySubject.eraseToAnyPublisher() }

  /// The new size after each SIGWINCH, on an internal queue; finishes on ``restore()``.
  public var resizes: AnyPublisher<Size, Never> { sizeSubject.eraseToAnyPublisher() }

  /// The terminal's size each time the process is continued (SIGCONT, after Ctrl-Z and
  /// `fg`, or any stop) and the terminal is taken over again: raw mode and the alternate
  /// screen are back, and whatever it showed is lost, so the next frame must repaint in
  /// full. On an internal queue; finishes on ``restore()``.
  public var resumes: AnyPublisher<Size, Never> { resumeSubject.eraseToAnyPublisher() }

  /// Writes to ``output`` until the terminal is restored, then drops everything. Its
  /// ``TerminalWriter/tryWrite(_:)`` reports `false` when a write was cut short (the
  /// terminal made no progress for ``writeTimeout``, or failed) or dropped.
  public var writer: TerminalWriter {
    TerminalWriter(reportingCompletion: { [self] bytes in write(bytes) })
  }

  /// Writes `bytes` unless restored; returns whether all of them were written.
  private func write(_ bytes: [UInt8]) -> Bool {
    writeLock.lock()
    defer { writeLock.unlock() }
    guard state.withLock({ !$0.isRestored && !$0.isSuspended }) else { return false }
    return writeAll(bytes, to: writeDescriptor, timeout: Self.writeTimeout)
  }

  /// What SIGINT, SIGQUIT, SIGTERM, SIGHUP and SIGPIPE do, called with the signal number
  /// after the terminal is restored; `nil` (the default) exits with status 128 + the
  /// signal number (141 for SIGPIPE, as a shell pipeline's writer exits). A SIGPIPE found
  /// ignored when the terminal opened stays ignored: writes to a closed pipe then fail
  /// with `EPIPE` for the app to handle.
  public var interruptHandler: (@Sendable (Int32) -> Void)? {
    get { state.withLock { $0.handler } }
    set { state.withLock { $0.handler = newValue } }
  }

  /// Whether ``restore()`` has run.
  public var isOpen: Bool { state.withLock { !$0.isRestored } }

  /// Whether the terminal reports the mouse: presses, releases, drags and the wheel
  /// arrive on ``keys`` as ``TerminalKey/mouse(_:)``. Off by default (while on, the
  /// terminal's own text selection needs Shift); ``restore()`` turns it off.
  ///
  ///     terminal.reportsMouse = true
  public var reportsMouse: Bool {
    get { state.withLock { $0.reportsMouse } }
    set {
      let changed = state.withLock { state -> Bool in
        guard !state.isRestored, state.reportsMouse != newValue else { return false }
        state.reportsMouse = newValue
        return true
      }
      if changed { _ = write(newValue ? ANSI.enableMouse : ANSI.disableMouse) }
    }
  }

  /// Gives the terminal back: default style, cursor shown, main screen, the attributes it
  /// had before, the signal actions it found. Safe to call more than once and from any
  /// thread; waits for a frame being written at most ``writeTimeout``, and never blocks
  /// on a terminal that stopped reading.
  public func restore() {
    let taken = state.withLock { state -> ([any DispatchSourceProtocol], [(Int32, sigaction)])? in
      guard !state.isRestored else { return nil }
      state.isRestored = true
      defer {
        state.sources.removeAll()
        state.savedActions.removeAll()
      }
      return (state.sources, state.savedActions.map { ($0.signal, $0.action) })
    }
    guard let (sources, actions) = taken else { return }
    leaveFullScreen()
    for source in sources { source.cancel() }
    ActiveTerminal.restoreActions(actions.map { (signal: $0.0, action: $0.1) })
    ActiveTerminal.release(self)
    keySubject.send(completion: .finished)
    sizeSubject.send(completion: .finished)
    resumeSubject.send(completion: .finished)
  }

  /// Leaves the full screen and restores the attributes, waiting for a frame in flight at
  /// most ``writeTimeout``.
  private func leaveFullScreen() {
    let milliseconds = Int(Self.writeTimeout.components.seconds * 1_000)
    let locked = writeLock.lock(waitingAtMost: milliseconds)
    _ = writeAll(ANSI.leaveFullScreen, to: writeDescriptor, timeout: Self.writeTimeout)
    if locked { writeLock.unlock() }
    var attributes = saved
    _ = tcsetattr(input, TCSANOW, &attributes)
  }

  /// Puts the terminal in raw mode; arms the crash path the first time (a resume finds it
  /// armed, and must not re-arm it behind a concurrent ``restore()``).
  private func enterRawMode(armingCrashRestore: Bool = true) throws(TerminalError) {
    var raw = saved
    // Keys arrive one at a time and unechoed; Ctrl-C, Ctrl-\ and Ctrl-Z stay signals
    // (ISIG is kept).
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else {
      throw .attributesUnavailable(errno: errno)
    }
    if armingCrashRestore {
      ActiveTerminal.prepareCrashRestore(
        input: input, output: writeDescriptor, attributes: saved)
    }
  }

  private func installSignalHandlers() {
    ActiveTerminal.drainSignalPipe()
    let source = DispatchSource.makeReadSource(
      fileDescriptor: ActiveTerminal.signalPipe.read, queue: queue)
    source.setEventHandler { [weak self] in
      var numbers = [UInt8](repeating: 0, count: 64)
      let count = read(ActiveTerminal.signalPipe.read, &numbers, numbers.count)
      guard count > 0 else { return }
      for number in numbers.prefix(count) { self?.received(Int32(number)) }
    }
    source.resume()
    let actions = ActiveTerminal.installSignalHandlers()
    state.withLock {
      $0.sources.append(source)
      $0.savedActions = actions
    }
    ActiveTerminal.installCrashHandlers()
  }

  /// Runs on the queue for each signal the handlers caught.
  private func received(_ number: Int32) {
    guard isOpen else { return }
    switch number {
    case SIGWINCH: sizeSubject.send(size)
    case SIGTSTP: suspend()
    case SIGCONT: resume()
    default:
      restore()
      if let handler = interruptHandler {
        handler(number)
      } else {
        exit(128 + number)
      }
    }
  }

  /// Ctrl-Z: gives the terminal back, then stops the process as SIGTSTP's default action
  /// would; SIGCONT (or this stop not happening at all) takes it over again.
  private func suspend() {
    state.withLock { $0.isSuspended = true }
    leaveFullScreen()
    let ours = ActiveTerminal.setAction(SIGTSTP, to: ActiveTerminal.defaultAction)
    var pending = sigset_t()
    sigemptyset(&pending)
    sigaddset(&pending, SIGTSTP)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &pending, &previousMask)
    raise(SIGTSTP)
    // Continued (or never stopped: an orphaned process group discards SIGTSTP).
    pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    _ = ActiveTerminal.setAction(SIGTSTP, to: ours)
    resume()
  }

  /// SIGCONT: raw mode and the alternate screen again, and a full repaint — unless the
  /// process was continued in the background, where touching the terminal would stop it
  /// again (SIGTTOU); the SIGCONT of the next `fg` resumes then.
  private func resume() {
    let group = tcgetpgrp(input)
    guard group == -1 || group == getpgrp() else { return }
    guard
      state.withLock({ state -> Bool in
        guard !state.isRestored else { return false }
        state.isSuspended = false
        return true
      })
    else { return }
    try? enterRawMode(armingCrashRestore: false)
    _ = write(ANSI.enterFullScreen)
    if reportsMouse { _ = write(ANSI.enableMouse) }
    resumeSubject.send(size)
  }

  private func startReading() {
    let source = DispatchSource.makeReadSource(fileDescriptor: input, queue: queue)
    var parser = TerminalKeyParser()
    let input = input
    source.setEventHandler { [weak self] in
      // The source fires when bytes are ready, so this read does not block.
      var buffer = [UInt8](repeating: 0, count: 4_096)
      let count = read(input, &buffer, buffer.count)
      let error = errno
      guard let self else { return }
      if count > 0 {
        for key in parser.parse(Array(buffer.prefix(count))) { keySubject.send(key) }
      } else if count == 0 || (error != EINTR && error != EAGAIN) {
        // End of input, or a terminal that hung up (EIO): no key will come again.
        source.cancel()
        for key in parser.flush() { keySubject.send(key) }
        keySubject.send(completion: .finished)
      }
    }
    source.resume()
    state.withLock { $0.sources.append(source) }
  }
}
