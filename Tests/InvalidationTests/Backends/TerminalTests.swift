import Invalidation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair: tests open a ``Terminal`` on the follower side and read what
/// it writes from the leader side.
final class PseudoTerminal {
  let leader: Int32
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

  deinit {
    close(follower)
    close(leader)
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
    #expect(shown.hasSuffix("frame"))
    // Only one terminal at a time.
    #expect(throws: TerminalError.alreadyOpen) {
      try Terminal.open(input: pty.follower, output: pty.follower)
    }
    terminal.restore()
    #expect(!terminal.isOpen)
    #expect(pty.localFlags() == before)
    #expect(pty.drain() == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
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
