import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one open ``Terminal`` of the process, and what the signal, exit and crash paths
/// need to reach without it: they run where no Swift object can safely be reached, so
/// they touch only memory prepared before their handlers are installed.
enum ActiveTerminal {
  /// SIGINT, SIGQUIT, SIGTERM, SIGHUP and SIGPIPE: restore, then the terminal's interrupt
  /// handler. SIGPIPE (a write to a pipe whose reader is gone) would otherwise kill the
  /// process with the terminal raw on the alternate screen; caught, the write that raised
  /// it still fails with `EPIPE`, and by default the app exits 141 (128 + 13), as a shell
  /// pipeline's writer does, with the terminal given back. A process that ignores SIGPIPE
  /// (many servers do) keeps ignoring it and handles `EPIPE` itself.
  static let interruptSignals: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE]
  /// Every signal the terminal handles while open: the interrupts, job control (SIGTSTP
  /// suspends, SIGCONT resumes) and SIGWINCH. A signal found ignored at open (SIGHUP under
  /// `nohup`, SIGTSTP under a shell without job control) stays ignored.
  static let handledSignals: [Int32] = interruptSignals + [SIGTSTP, SIGCONT, SIGWINCH]
  /// Crash signals: restore with async-signal-safe calls, then pass the signal on to the
  /// handler that was there before.
  static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

  /// The open terminal, if any.
  private static let current = LockedBox<Terminal?>(nil)

  static func claim(_ terminal: Terminal) throws(TerminalError) {
    let claimed = current.withLock { open -> Bool in
      guard open == nil else { return false }
      open = terminal
      return true
    }
    guard claimed else { throw .alreadyOpen }
    installExitHandlerOnce()
  }

  static func release(_ terminal: Terminal) {
    current.withLock { open in if open === terminal { open = nil } }
    crashState.pointee.armed = false
  }

  // MARK: Exit

  nonisolated(unsafe) private static var exitHandlerInstalled = false

  private static func installExitHandlerOnce() {
    // Called with the lock of `current` released; `claim` serialises callers.
    guard !exitHandlerInstalled else { return }
    exitHandlerInstalled = true
    atexit { ActiveTerminal.current.withLock { $0 }?.restore() }
  }

  // MARK: Signals

  /// The self-pipe the signal handlers write signal numbers to (a byte each), read on the
  /// terminal's queue. Made once, close-on-exec and non-blocking at both ends, before any
  /// handler that writes to it is installed.
  static let signalPipe: (read: Int32, write: Int32) = {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return (-1, -1) }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    signalPipeWriteEnd.pointee = descriptors[1]
    return (descriptors[0], descriptors[1])
  }()

  /// The pipe's write end, in memory a signal handler may read.
  nonisolated(unsafe) private static let signalPipeWriteEnd: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    pointer.initialize(to: -1)
    return pointer
  }()

  /// Installs the self-pipe handler for every handled signal not found ignored; returns
  /// the actions it replaced, to be put back exactly by ``restoreActions(_:)``.
  static func installSignalHandlers() -> [(signal: Int32, action: sigaction)] {
    _ = signalPipe
    var replaced: [(signal: Int32, action: sigaction)] = []
    for number in handledSignals {
      var found = sigaction()
      guard sigaction(number, nil, &found) == 0, !isIgnored(found) else { continue }
      var action = sigaction()
      let handler: @convention(c) (Int32) -> Void = { number in
        // Only `write`, async-signal-safe, and memory prepared in advance; errno is kept.
        let savedErrno = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(ActiveTerminal.signalPipeWriteEnd.pointee, &byte, 1)
        errno = savedErrno
      }
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = Int32(SA_RESTART)
      #else
        action.__sigaction_u.__sa_handler = handler
        action.sa_flags = SA_RESTART
      #endif
      sigemptyset(&action.sa_mask)
      var previous = sigaction()
      if sigaction(number, &action, &previous) == 0 {
        replaced.append((number, previous))
      }
    }
    return replaced
  }

  /// Puts back the actions ``installSignalHandlers()`` replaced.
  static func restoreActions(_ actions: [(signal: Int32, action: sigaction)]) {
    for (number, action) in actions {
      var action = action
      _ = sigaction(number, &action, nil)
    }
  }

  /// Sets one signal's action for the suspend path: the default, then ours again.
  static func setAction(_ number: Int32, to action: sigaction) -> sigaction {
    var action = action
    var previous = sigaction()
    _ = sigaction(number, &action, &previous)
    return previous
  }

  static var defaultAction: sigaction {
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = SIG_DFL
    #else
      action.__sigaction_u.__sa_handler = SIG_DFL
    #endif
    sigemptyset(&action.sa_mask)
    return action
  }

  private static func isIgnored(_ action: sigaction) -> Bool {
    #if canImport(Glibc)
      let handler = action.__sigaction_handler.sa_handler
    #else
      let handler = action.__sigaction_u.__sa_handler
    #endif
    // SIG_DFL is the null handler; SIG_IGN is the handler at address 1 (Linux, Darwin).
    guard let handler else { return false }
    return unsafeBitCast(handler, to: Int.self) == 1
  }

  /// Empties the self-pipe of signals that arrived for an earlier terminal.
  static func drainSignalPipe() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(signalPipe.read, &bytes, bytes.count) > 0 {}
  }

  // MARK: Crash

  /// Plain values only, written before the handlers are installed and read by them.
  struct CrashState {
    var armed = false
    var input: Int32 = -1
    var output: Int32 = -1
    var attributes = termios()
  }
  /// The crash state, in memory allocated before any handler can run.
  nonisolated(unsafe) private static let crashState: UnsafeMutablePointer<CrashState> = {
    let pointer = UnsafeMutablePointer<CrashState>.allocate(capacity: 1)
    pointer.initialize(to: CrashState())
    return pointer
  }()
  nonisolated(unsafe) private static var crashHandlersInstalled = false
  /// The bytes that leave the full screen, in memory a signal handler may read.
  nonisolated(unsafe) private static let leaveBytes: UnsafeMutableBufferPointer<UInt8> = {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ANSI.leaveFullScreen.count)
    _ = buffer.initialize(from: ANSI.leaveFullScreen)
    return buffer
  }()

  /// Arms the crash path. `output` should be non-blocking, so that a crash on a stalled
  /// terminal still ends.
  static func prepareCrashRestore(input: Int32, output: Int32, attributes: termios) {
    _ = leaveBytes
    crashState.pointee = CrashState(
      armed: true, input: input, output: output, attributes: attributes)
  }

  /// The actions the crash handlers replaced (the Swift runtime's backtracer, say), by
  /// signal number, in memory a signal handler may read.
  nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> =
    .allocate(capacity: 65)

  static func installCrashHandlers() {
    guard !crashHandlersInstalled else { return }
    crashHandlersInstalled = true
    _ = crashState
    _ = leaveBytes
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

  /// Only `write` (once, to a non-blocking descriptor) and `tcsetattr`, both
  /// async-signal-safe, on memory prepared in advance.
  private static func restoreFromSignalHandler() {
    let state = crashState
    guard state.pointee.armed else { return }
    state.pointee.armed = false
    _ = write(state.pointee.output, leaveBytes.baseAddress, leaveBytes.count)
    _ = tcsetattr(state.pointee.input, TCSANOW, &state.pointee.attributes)
  }
}

/// A mutex with a bounded wait, ordering the terminal's writes: frames, and the last
/// write of ``Terminal/restore()``, which waits for a frame in flight only so long.
///
/// - Note: `@unchecked Sendable`: a pthread mutex, which the thread sanitizer sees.
final class WriteLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }

  func unlock() { pthread_mutex_unlock(mutex) }

  /// Takes the lock if it comes free within `milliseconds`; returns whether it did.
  func lock(waitingAtMost milliseconds: Int) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_REALTIME, &deadline)
    let nanoseconds = deadline.tv_nsec + milliseconds % 1_000 * 1_000_000
    deadline.tv_sec += milliseconds / 1_000 + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    return pthread_mutex_timedlock(mutex, &deadline) == 0
  }
}
