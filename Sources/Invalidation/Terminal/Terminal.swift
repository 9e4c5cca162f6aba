import Dispatch
import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal, taken over for a full-screen app: raw-mode input (keys arrive
/// at once, unechoed), the alternate screen, a hidden cursor — and all of it undone by
/// ``restore()``, at exit, on SIGINT, SIGTERM and SIGHUP, and on a crash signal.
///
///     let terminal = try Terminal.open()
///     defer { terminal.restore() }
///     terminal.writer.write(Array("hello".utf8))
///
/// Ctrl-C stays a signal (the terminal keeps `ISIG`): the default ``interruptHandler``
/// restores the terminal and exits with status 128 + the signal number, so a stuck app
/// still gives the terminal back. Crash signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
/// SIGABRT, SIGFPE) restore with async-signal-safe calls only, then re-raise.
///
/// # Thread safety
/// Thread-safe. Keys and sizes are published on an internal queue; ``TerminalBackend``
/// hops them to its loop's scheduler. ``writer`` may be used from any thread; after
/// ``restore()`` it writes nothing, so a late frame cannot land on the restored screen.
/// One lock guards `isRestored`, `interruptHandler`, the signal and input sources; writes
/// happen under it so that restoring and writing never interleave.
public final class Terminal: @unchecked Sendable {
  /// The descriptor keys are read from.
  public let input: Int32
  /// The descriptor frames are written to.
  public let output: Int32

  /// What the lock guards (which also orders writes).
  private struct State {
    /// Whether ``restore()`` has run.
    var isRestored = false
    /// The interrupt handler.
    var handler: (@Sendable (Int32) -> Void)?
    /// The signal and input sources, cancelled on restore.
    var sources: [any DispatchSourceProtocol] = []
  }

  /// The terminal's state behind the lock that also orders writes: a box, one per
  /// terminal (`Guarded` cannot be subclassed outside ReactiveCore).
  private let state = LockedBox(State())
  private let saved: termios
  private let queue = DispatchQueue(label: "org.ripple.terminal")
  private let keySubject = PassthroughSubject<TerminalKey, Never>()
  private let sizeSubject = PassthroughSubject<Size, Never>()

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
    let terminal = Terminal(input: input, output: output, saved: attributes)
    try ActiveTerminal.claim(terminal)
    do throws(TerminalError) {
      try terminal.enterRawMode()
    } catch {
      ActiveTerminal.release(terminal)
      throw error
    }
    writeAll(ANSI.enterFullScreen, to: output)
    terminal.installSignalHandlers()
    terminal.startReading()
    return terminal
  }

  private init(input: Int32, output: Int32, saved: termios) {
    self.input = input
    self.output = output
    self.saved = saved
  }

  /// The terminal's size in cells (80×24 if it cannot be read), capped at
  /// ``TextCanvas/maximumSize`` (2048×1024): a terminal that reports 65535×65535, as some
  /// SSH clients do, gets frames of two million cells at most, not four billion.
  public var size: Size {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
    else { return Size(width: 80, height: 24) }
    return Size(width: Int(window.ws_col), height: Int(window.ws_row))
      .clamped(to: TextCanvas.maximumSize)
  }

  /// Keys as they are typed, on an internal queue; finishes on ``restore()``.
  public var keys: AnyPublisher<TerminalKey, Never> { keySubject.eraseToAnyPublisher() }

  /// The new size after each SIGWINCH, on an internal queue; finishes on ``restore()``.
  public var resizes: AnyPublisher<Size, Never> { sizeSubject.eraseToAnyPublisher() }

  /// Writes to ``output`` until the terminal is restored, then drops everything.
  public var writer: TerminalWriter {
    TerminalWriter { [self] bytes in
      state.withLock { state in
        if !state.isRestored { writeAll(bytes, to: output) }
      }
    }
  }

  /// What SIGINT, SIGTERM and SIGHUP do, called with the signal number after the terminal
  /// is restored; `nil` (the default) exits with status 128 + the signal number.
  public var interruptHandler: (@Sendable (Int32) -> Void)? {
    get { state.withLock { $0.handler } }
    set { state.withLock { $0.handler = newValue } }
  }

  /// Whether ``restore()`` has run.
  public var isOpen: Bool { state.withLock { !$0.isRestored } }

  /// Gives the terminal back: default style, cursor shown, main screen, the attributes it
  /// had before. Safe to call more than once and from any thread.
  public func restore() {
    let sources: [any DispatchSourceProtocol]? = state.withLock { state in
      guard !state.isRestored else { return nil }
      state.isRestored = true
      writeAll(ANSI.leaveFullScreen, to: output)
      var attributes = saved
      _ = tcsetattr(input, TCSANOW, &attributes)
      defer { state.sources.removeAll() }
      return state.sources
    }
    guard let sources else { return }
    for source in sources { source.cancel() }
    for number in ActiveTerminal.handledSignals + [SIGWINCH] { _ = signal(number, SIG_DFL) }
    ActiveTerminal.release(self)
    keySubject.send(completion: .finished)
    sizeSubject.send(completion: .finished)
  }

  private func enterRawMode() throws(TerminalError) {
    var raw = saved
    // Keys arrive one at a time and unechoed; Ctrl-C stays a signal (ISIG is kept).
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else {
      throw .attributesUnavailable(errno: errno)
    }
    ActiveTerminal.prepareCrashRestore(input: input, output: output, attributes: saved)
  }

  private func installSignalHandlers() {
    var created: [any DispatchSourceProtocol] = []
    // A signal source only sees a signal whose default action is off.
    for number in ActiveTerminal.handledSignals {
      _ = signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [weak self] in self?.received(number) }
      source.resume()
      created.append(source)
    }
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
    _ = signal(SIGWINCH, SIG_IGN)
    resize.setEventHandler { [weak self] in
      guard let self else { return }
      sizeSubject.send(size)
    }
    resize.resume()
    created.append(resize)
    state.withLock { $0.sources += created }
    ActiveTerminal.installCrashHandlers()
  }

  private func received(_ number: Int32) {
    restore()
    if let handler = interruptHandler {
      handler(number)
    } else {
      exit(128 + number)
    }
  }

  private func startReading() {
    let source = DispatchSource.makeReadSource(fileDescriptor: input, queue: queue)
    var parser = TerminalKeyParser()
    let input = input
    source.setEventHandler { [weak self] in
      // The source fires when bytes are ready, so this read does not block.
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = read(input, &buffer, buffer.count)
      guard let self, count > 0 else { return }
      for key in parser.parse(Array(buffer.prefix(count))) { keySubject.send(key) }
    }
    source.resume()
    state.withLock { $0.sources.append(source) }
  }
}
