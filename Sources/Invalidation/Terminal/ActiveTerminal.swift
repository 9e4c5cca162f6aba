import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one open ``Terminal`` of the process, and what the exit and crash paths need to
/// restore it without it: they run where no Swift object can safely be reached.
enum ActiveTerminal {
  /// SIGINT, SIGTERM and SIGHUP: restore, then the terminal's interrupt handler.
  static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  /// Crash signals: restore with async-signal-safe calls, then pass the signal on to the
  /// handler that was there before.
  static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

  private static let current = LockedTerminal()

  static func claim(_ terminal: Terminal) throws(TerminalError) {
    guard current.claim(terminal) else { throw .alreadyOpen }
    installExitHandlerOnce()
  }

  static func release(_ terminal: Terminal) {
    current.release(terminal)
    crashState.armed = false
  }

  // MARK: Exit

  nonisolated(unsafe) private static var exitHandlerInstalled = false

  private static func installExitHandlerOnce() {
    // Called with the lock of `current` released; `claim` serialises callers.
    guard !exitHandlerInstalled else { return }
    exitHandlerInstalled = true
    atexit { ActiveTerminal.current.terminal?.restore() }
  }

  // MARK: Crash

  /// Plain values only, written before the handlers are installed and read by them.
  private struct CrashState {
    var armed = false
    var input: Int32 = -1
    var output: Int32 = -1
    var attributes = termios()
  }
  nonisolated(unsafe) private static var crashState = CrashState()
  nonisolated(unsafe) private static var crashHandlersInstalled = false
  /// The bytes that leave the full screen, in memory a signal handler may read.
  nonisolated(unsafe) private static let leaveBytes: UnsafeMutableBufferPointer<UInt8> = {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ANSI.leaveFullScreen.count)
    _ = buffer.initialize(from: ANSI.leaveFullScreen)
    return buffer
  }()

  static func prepareCrashRestore(input: Int32, output: Int32, attributes: termios) {
    _ = leaveBytes
    crashState = CrashState(armed: true, input: input, output: output, attributes: attributes)
  }

  /// The actions the crash handlers replaced (the Swift runtime's backtracer, say), by
  /// signal number, in memory a signal handler may read.
  nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> =
    .allocate(capacity: 64)

  static func installCrashHandlers() {
    guard !crashHandlersInstalled else { return }
    crashHandlersInstalled = true
    for number in crashSignals {
      var action = sigaction()
      let handler: @convention(c) (Int32) -> Void = { number in
        ActiveTerminal.restoreFromSignalHandler()
        // Hand the signal to whoever handled it before (or to the default action), so a
        // crash still reports and ends as it would have.
        sigaction(number, ActiveTerminal.previousActions + Int(number), nil)
        raise(number)
      }
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = Int32(SA_NODEFER)
      #else
        action.__sigaction_u.__sa_handler = handler
        action.sa_flags = SA_NODEFER
      #endif
      sigemptyset(&action.sa_mask)
      sigaction(number, &action, previousActions + Int(number))
    }
  }

  /// Only `write` and `tcsetattr`, both async-signal-safe.
  private static func restoreFromSignalHandler() {
    guard crashState.armed else { return }
    crashState.armed = false
    _ = write(crashState.output, leaveBytes.baseAddress, leaveBytes.count)
    _ = tcsetattr(crashState.input, TCSANOW, &crashState.attributes)
  }
}

/// The open terminal behind a lock.
///
/// - Note: `@unchecked Sendable`: `lock` guards `value`.
private final class LockedTerminal: @unchecked Sendable {
  /// The lock that guards `value`.
  private let lock = Lock()
  @exclusivity(unchecked) private var value: Terminal?

  var terminal: Terminal? { lock.withLock { value } }

  func claim(_ terminal: Terminal) -> Bool {
    lock.withLock {
      guard value == nil else { return false }
      value = terminal
      return true
    }
  }

  func release(_ terminal: Terminal) {
    lock.withLock { if value === terminal { value = nil } }
  }
}
