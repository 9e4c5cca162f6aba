import Dispatch
import Invalidation
import InvalidationTerminal
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair: tests open a ``Terminal`` on the follower side and read what
/// it writes from the leader side.
final class PseudoTerminal {
  private(set) var leader: Int32
  let follower: Int32

  private init(leader: Int32, follower: Int32) {
    self.leader = leader
    self.follower = follower
  }

  /// Opens a pair, or returns `nil` where that is not possible.
  static func open() -> PseudoTerminal? {
    #if os(Linux)
      // Glibc's module map leaves out posix_openpt and friends: /dev/ptmx and its two
      // ioctls (TIOCSPTLCK, TIOCGPTN, whose macros do not import) do the same.
      let leader = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlock: Int32 = 0
      var number: UInt32 = 0
      guard leader >= 0 else { return nil }
      guard ioctl(leader, UInt(0x4004_5431), &unlock) == 0,
        ioctl(leader, UInt(0x8004_5430), &number) == 0
      else {
        close(leader)
        return nil
      }
      let follower = Glibc.open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
      guard follower >= 0 else {
        close(leader)
        return nil
      }
      _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
      return PseudoTerminal(leader: leader, follower: follower)
    #else
      return nil
    #endif
  }

  /// Everything written to the follower so far.
  func drain() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = read(leader, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer.prefix(count)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  func localFlags() -> tcflag_t {
    var attributes = termios()
    _ = tcgetattr(follower, &attributes)
    return attributes.c_lflag
  }

  /// Sets the window size, as a terminal emulator does when its window changes.
  func setSize(columns: UInt16, rows: UInt16) {
    var window = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(leader, UInt(TIOCSWINSZ), &window)
  }

  /// Closes the leader side, as a terminal emulator that quits (or a dropped SSH
  /// connection) does: the follower then reads EIO.
  func hangUp() {
    if leader >= 0 { close(leader) }
    leader = -1
  }

  deinit {
    close(follower)
    if leader >= 0 { close(leader) }
  }
}

// One suite, run serially: a process has one open Terminal at a time.
@Suite(.serialized) struct TerminalTests {
  @Test func opensRawOnTheAlternateScreenAndRestoresEverything() throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    let before = pty.localFlags()
    #expect(before & tcflag_t(ICANON) != 0)
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    #expect(terminal.isOpen)
    #expect(pty.localFlags() & tcflag_t(ICANON | ECHO) == 0)
    #expect(pty.localFlags() & tcflag_t(ISIG) != 0)  // Ctrl-C stays a signal
    terminal.writer.write(Array("frame".utf8))
    let shown = pty.drain()
    #expect(shown.hasPrefix("\u{1B}[?1049h\u{1B}[?25l"))
    #expect(shown.contains("\u{1B}[?2004h"))  // bracketed paste on while open
    #expect(shown.hasSuffix("frame"))
    // Only one terminal at a time.
    #expect(throws: TerminalError.alreadyOpen) {
      try Terminal.open(input: pty.follower, output: pty.follower)
    }
    terminal.restore()
    #expect(!terminal.isOpen)
    #expect(pty.localFlags() == before)
    // Mouse reporting and bracketed paste off, then the screen given back.
    #expect(
      pty.drain()
        == "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    // Nothing reaches the restored screen, and a second restore does nothing.
    terminal.writer.write(Array("late".utf8))
    terminal.restore()
    #expect(pty.drain() == "")
    // The terminal can be opened again.
    let again = try Terminal.open(input: pty.follower, output: pty.follower)
    again.restore()
    #expect(pty.localFlags() == before)
  }

  @Test func aHugeReportedSizeIsCapped() throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    pty.setSize(columns: 65_535, rows: 65_535)
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    defer { terminal.restore() }
    #expect(terminal.size == TextCanvas.maximumSize)
    pty.setSize(columns: 7, rows: 5)
    #expect(terminal.size == Size(width: 7, height: 5))
  }

  @Test func keysArriveAsTheyAreTyped() async throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    defer { terminal.restore() }
    let keys = AsyncStream<TerminalKey> { continuation in
      let subscription = terminal.keys.sink { continuation.yield($0) }
      continuation.onTermination = { _ in subscription.cancel() }
    }
    _ = write(pty.leader, "q\u{1B}[A", 4)
    var received: [TerminalKey] = []
    for await key in keys {
      received.append(key)
      if received.count == 2 { break }
    }
    #expect(received == [.character("q"), .up])
  }
}

/// A signal's action: its handler's address (0 default, 1 ignore) and flags.
struct SignalAction: Equatable {
  var handler: Int
  var flags: Int32
}

func currentAction(_ number: Int32) -> SignalAction {
  var action = sigaction()
  _ = sigaction(number, nil, &action)
  let handler = action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
  return SignalAction(handler: handler, flags: action.sa_flags)
}

func setAction(_ number: Int32, _ handler: __sighandler_t?) {
  var action = sigaction()
  action.__sigaction_handler.sa_handler = handler
  sigemptyset(&action.sa_mask)
  _ = sigaction(number, &action, nil)
}

/// The signals a child started now would find ignored: `SigIgn` of `/proc/<child>/status`.
func signalsAChildInheritsIgnored() -> UInt64? {
  var outputPipe: [Int32] = [0, 0]
  guard pipe(&outputPipe) == 0 else { return nil }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
  posix_spawn_file_actions_addclose(&actions, outputPipe[0])
  posix_spawn_file_actions_addclose(&actions, outputPipe[1])
  let words: [String] = ["/bin/sh", "-c", "grep SigIgn /proc/self/status"]
  let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var child = pid_t()
  let code = posix_spawn(&child, "/bin/sh", &actions, nil, argv, nil)
  close(outputPipe[1])
  defer { close(outputPipe[0]) }
  guard code == 0 else { return nil }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 256)
  while true {
    let count = read(outputPipe[0], &buffer, buffer.count)
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    bytes += buffer.prefix(count)
  }
  var status: Int32 = 0
  while waitpid(child, &status, 0) < 0 && errno == EINTR {}
  let line = String(decoding: bytes, as: UTF8.self)
  return line.split(separator: "\t").last.flatMap {
    UInt64(String($0.filter(\.isHexDigit)), radix: 16)
  }
}

/// Waits for `semaphore` for a long time, so that a deadlock fails the test instead of
/// hanging the run; not a timing assertion.
func finishes(_ semaphore: DispatchSemaphore) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(60)) == .success
}

extension TerminalTests {
  @Test(arguments: [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE])
  func anInterruptRestoresTheTerminalThenCallsTheHandler(signal number: Int32) throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    let before = pty.localFlags()
    // A test runner may ignore SIGPIPE; an app starts with its default action.
    var found = sigaction()
    _ = sigaction(number, nil, &found)
    setAction(number, SIG_DFL)
    defer { _ = sigaction(number, &found, nil) }
    let action = currentAction(number)
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    let received = LockedBox<[Int32]>([])
    let called = DispatchSemaphore(value: 0)
    let follower = pty.follower
    terminal.interruptHandler = { signal in
      // The terminal is already given back when the handler runs.
      var attributes = termios()
      _ = tcgetattr(follower, &attributes)
      received.withLock { $0 += [signal, attributes.c_lflag == before ? 1 : 0] }
      called.signal()
    }
    kill(getpid(), number)  // to the process: test threads may block signals
    #expect(finishes(called))
    #expect(received.withLock { $0 } == [number, 1])
    #expect(!terminal.isOpen)
    #expect(pty.drain().hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"))
    #expect(currentAction(number) == action)
  }

  @Test func signalsAreCaughtNotIgnoredAndTheActionsFoundAreRestored() throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    // As under `nohup`: SIGHUP ignored. SIGTERM has a handler of the app's own.
    let hangUp = currentAction(SIGHUP)
    let terminate = currentAction(SIGTERM)
    setAction(SIGHUP, SIG_IGN)
    let handler: @convention(c) (Int32) -> Void = { _ in }
    setAction(SIGTERM, handler)
    defer {
      setAction(
        SIGHUP,
        hangUp.handler == 0 ? SIG_DFL : unsafeBitCast(hangUp.handler, to: __sighandler_t.self))
      setAction(
        SIGTERM,
        terminate.handler == 0 ? SIG_DFL : unsafeBitCast(terminate.handler, to: __sighandler_t.self)
      )
    }
    let found = ActiveSignals.all.map(currentAction)
    let ignoredBefore = signalsAChildInheritsIgnored()
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    #expect(currentAction(SIGHUP).handler == 1, "SIGHUP stays ignored under nohup")
    for number in [SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH] {
      #expect(currentAction(number).handler > 1, "signal \(number) is caught")
    }
    // A child started now inherits no ignored signal the user did not ignore.
    if let ignoredBefore, let ignoredNow = signalsAChildInheritsIgnored() {
      #expect(ignoredNow == ignoredBefore)
      #expect(ignoredNow & (1 << (UInt64(SIGHUP) - 1)) != 0)
      #expect(ignoredNow & (1 << (UInt64(SIGINT) - 1)) == 0)
    } else {
      Issue.record("could not start /bin/sh")
    }
    terminal.restore()
    #expect(ActiveSignals.all.map(currentAction) == found)
  }

  @Test func sigcontTakesTheTerminalOverAgainAndAsksForAFullRepaint() throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    pty.setSize(columns: 50, rows: 7)
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    defer { terminal.restore() }
    _ = pty.drain()
    let resumed = DispatchSemaphore(value: 0)
    let sizes = LockedBox<[Size]>([])
    let subscription = terminal.resumes.sink { size in
      sizes.withLock { $0.append(size) }
      resumed.signal()
    }
    defer { subscription.cancel() }
    kill(getpid(), SIGCONT)
    #expect(finishes(resumed))
    #expect(sizes.withLock { $0 } == [Size(width: 50, height: 7)])
    #expect(pty.drain().contains("\u{1B}[?1049h\u{1B}[?25l"))
    #expect(pty.localFlags() & tcflag_t(ICANON | ECHO) == 0)
  }

  @Test func aStalledTerminalNeverBlocksRestoreAndReportsTheLostFrame() throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    let before = pty.localFlags()
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    // Nobody reads the leader side: the terminal's buffer fills and writes stall.
    let frame = [UInt8](repeating: 0x78, count: 1 << 20)
    #expect(!terminal.writer.tryWrite(frame), "a frame cut short is reported")
    let writing = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = terminal.writer.tryWrite(frame)
      writing.signal()
    }
    let restored = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      terminal.restore()
      restored.signal()
    }
    #expect(finishes(restored))
    #expect(finishes(writing))
    #expect(!terminal.isOpen)
    #expect(pty.localFlags() == before)
    #expect(!terminal.writer.tryWrite(Array("late".utf8)), "a write after restore is dropped")
  }

  @Test func endOfInputFinishesTheKeysOnce() throws {
    guard let pty = PseudoTerminal.open() else {
      Issue.record("no pseudo-terminal on this machine")
      return
    }
    let terminal = try Terminal.open(input: pty.follower, output: pty.follower)
    let events = LockedBox<[String]>([])
    let finished = DispatchSemaphore(value: 0)
    let subscription = terminal.keys.sink(
      receiveCompletion: { _ in
        events.withLock { $0.append("finished") }
        finished.signal()
      },
      receiveValue: { key in events.withLock { $0.append(key.description) } })
    defer { subscription.cancel() }
    _ = write(pty.leader, "q\u{1B}", 2)
    while events.withLock({ $0.isEmpty }) { usleep(1_000) }
    pty.hangUp()
    #expect(finishes(finished))
    let restored = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      terminal.restore()
      restored.signal()
    }
    #expect(finishes(restored))
    #expect(events.withLock { $0 } == ["q", "escape", "finished"])
  }
}

/// The signals a terminal handles.
enum ActiveSignals {
  static let all = [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]
}
