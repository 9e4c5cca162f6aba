import Foundation
import Ripple
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 26's figures between processes: how soon an observer hears another process's
/// write, and how fast two processes increment one counter in one file.
///
/// The other processes are this executable, run again as `RippleCompare --store-child
/// MODE PATH [COUNT]` (see ``runChild(_:)``). They talk over pipes, one line a message,
/// and end when their standard input closes, so none outlives this process.
enum CrossProcessStoreWorkloads {
  static let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("RippleCompare-processes-\(getpid())").path
  static let ping = StoreKey<Int>("benchmark.ping")
  static let counter = StoreKey<Int>("benchmark.counter")

  /// `CLOCK_MONOTONIC` in nanoseconds: one clock for every process on the machine.
  static func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }

  // MARK: The parent's side

  /// `store_external_change_latency`: a child stages the clock's reading and flushes; the
  /// time from that reading to this process's `publisher(for:)` subscriber receiving it.
  ///
  /// - Parameter rounds: Round trips measured, after three for warm-up.
  /// - Returns: The figures, or `nil` (with a message printed) if the child failed;
  ///   a change not heard within 2 seconds counts as missed.
  static func externalChangeLatency(rounds: Int) -> [String: Double]? {
    let path = "\(folder)/latency.json"
    let store: Store
    do {
      store = try Store(persistence: .file(path: path))
    } catch {
      print("store_external_change_latency: cannot open \(path): \(error)")
      return nil
    }
    defer { try? store.close() }
    let received = Mutex<[Int: Int]>([:])
    let arrived = DispatchSemaphore(value: 0)
    let subscription = store.publisher(for: ping).sink { mutation in
      let now = monotonicNanoseconds()
      guard mutation.origin == .anotherProcess else { return }
      received.withLock { $0[mutation.newValue] = now }
      arrived.signal()
    }
    defer { subscription.cancel() }

    guard let child = Child(mode: "latency", path: path) else { return nil }
    defer { child.end() }
    var latencies: [Double] = []
    var flushes: [Double] = []
    var missed = 0
    for round in 0..<(rounds + 3) {
      guard child.send("go"), let line = child.readLine(), let parts = numbers(line, 2) else {
        print("store_external_change_latency: the child stopped answering")
        return nil
      }
      let (staged, flushed) = (parts[0], parts[1])
      // Heard within 2 s, or missed (the store's backstop poll would find it later).
      var heard = received.withLock { $0[staged] }
      while heard == nil, arrived.wait(timeout: .now() + 2) == .success {
        heard = received.withLock { $0[staged] }
      }
      guard let heard else {
        missed += 1
        continue
      }
      if round >= 3 {
        latencies.append(Double(heard - staged) / 1_000_000)
        flushes.append(Double(flushed - staged) / 1_000_000)
      }
    }
    guard !latencies.isEmpty else {
      // Not a failure of the run: the store's backstop poll may still find the changes.
      print("store_external_change_latency: no change was heard within 2 s (\(missed) missed)")
      return ["missed": Double(missed)]
    }
    latencies.sort()
    let figures = [
      "median_ms": median(latencies), "p95_ms": percentile95(latencies),
      "max_ms": latencies.last!, "flush_median_ms": median(flushes),
      "rounds": Double(latencies.count), "missed": Double(missed),
    ]
    print(
      "store_external_change_latency: another process's stage + flush() → this process's "
        + "publisher(for:) subscriber, \(latencies.count) round trips: median "
        + "\(milliseconds(figures["median_ms"]!)) ms, p95 \(milliseconds(figures["p95_ms"]!)) ms, "
        + "max \(milliseconds(latencies.last!)) ms (the flush itself: median "
        + "\(milliseconds(figures["flush_median_ms"]!)) ms); \(missed) missed")
    return figures
  }

  /// `store_update_cross_process`: two children each run `update(_:for:_:)` +1 on one
  /// counter key of one file, `perProcess` times, started together.
  ///
  /// - Returns: The figures, with `correct` 1 when the final count is exactly the number
  ///   of increments, or `nil` (with a message printed) if a child failed.
  static func updateCrossProcess(perProcess: Int) -> [String: Double]? {
    let path = "\(folder)/counter.json"
    let children = (0..<2).compactMap { _ in
      Child(mode: "update", path: path, count: perProcess)
    }
    defer { for child in children { child.end() } }
    guard children.count == 2 else { return nil }
    let start = monotonicNanoseconds()
    for child in children where !child.send("go") {
      print("store_update_cross_process: a child stopped answering")
      return nil
    }
    var childSeconds: [Double] = []
    for child in children {
      guard let line = child.readLine(timeout: 120_000), let parts = numbers(line, 1) else {
        print("store_update_cross_process: a child stopped answering")
        return nil
      }
      childSeconds.append(Double(parts[0]) / 1_000_000_000)
    }
    let seconds = Double(monotonicNanoseconds() - start) / 1_000_000_000
    for child in children { child.end() }
    let total = 2 * perProcess
    var final: Int?
    do {
      let reader = try Store(persistence: .file(path: path, changeCheckInterval: nil))
      final = try reader.checkedValue(for: counter)
      try reader.close()
    } catch {
      print("store_update_cross_process: cannot read the count: \(error)")
    }
    let correct = final == total
    let perSecond = Double(total) / seconds
    print(
      "store_update_cross_process: 2 processes × \(perProcess) update(_:for:_:) +1 → final "
        + "count \(final.map(String.init) ?? "none") (expected \(total)) "
        + "\(correct ? "✓" : "✗ WRONG"); \(Int(perSecond.rounded())) increments/s "
        + "(\(milliseconds(seconds * 1_000)) ms; each child's own: "
        + childSeconds.map { milliseconds($0 * 1_000) }.joined(separator: ", ") + " ms)")
    return [
      "increments_per_second": perSecond, "final_count": Double(final ?? -1),
      "expected_count": Double(total), "correct": correct ? 1 : 0,
    ]
  }

  /// Removes the files the workloads wrote.
  static func removeFiles() { try? FileManager.default.removeItem(atPath: folder) }

  private static func numbers(_ line: String, _ count: Int) -> [Int]? {
    let parts = line.split(separator: " ").compactMap { Int($0) }
    return parts.count == count ? parts : nil
  }

  private static func median(_ sorted: [Double]) -> Double { sorted[sorted.count / 2] }

  private static func percentile95(_ sorted: [Double]) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
  }

  private static func milliseconds(_ value: Double) -> String {
    String(format: value < 10 ? "%.2f" : "%.1f", value)
  }

  // MARK: The child's side

  /// Runs a child: `--store-child latency PATH` answers each `go` line with a stage of the
  /// clock's reading and a flush, then a line `STAGED FLUSHED` (both clock readings);
  /// `--store-child update PATH COUNT` answers `ready`, waits for `go`, runs COUNT
  /// increments and a flush, then a line with its nanoseconds. Both end when standard
  /// input closes.
  ///
  /// - Parameter arguments: The arguments after `--store-child`.
  static func runChild(_ arguments: ArraySlice<String>) -> Never {
    let arguments = Array(arguments)
    guard arguments.count >= 2 else { childFail("usage: --store-child MODE PATH [COUNT]") }
    let path = arguments[1]
    let store: Store
    do {
      store = try Store(persistence: .file(path: path))
    } catch {
      childFail("cannot open \(path): \(error)")
    }
    var input = LineReader(descriptor: STDIN_FILENO)
    switch arguments[0] {
    case "latency":
      answer("ready")
      while let line = input.readLine(timeout: -1), line == "go" {
        let staged = monotonicNanoseconds()
        store.stage(staged, for: ping)
        do { try store.flush() } catch { childFail("flush: \(error)") }
        answer("\(staged) \(monotonicNanoseconds())")
      }
    case "update":
      guard arguments.count >= 3, let count = Int(arguments[2]) else {
        childFail("usage: --store-child update PATH COUNT")
      }
      answer("ready")
      guard input.readLine(timeout: -1) == "go" else { break }
      let start = monotonicNanoseconds()
      for _ in 0..<count { store.update(0, for: counter) { $0 += 1 } }
      do { try store.flush() } catch { childFail("flush: \(error)") }
      answer("\(monotonicNanoseconds() - start)")
      _ = input.readLine(timeout: -1)
    default:
      childFail("unknown mode \(arguments[0])")
    }
    do { try store.close() } catch { childFail("close: \(error)") }
    exit(0)
  }

  private static func answer(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        write(STDOUT_FILENO, $0.baseAddress, $0.count)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { exit(3) }
      offset += written
    }
  }

  private static func childFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("RippleCompare --store-child: \(message)\n".utf8))
    exit(2)
  }
}

/// A child process of this executable in `--store-child` mode, with pipes to its
/// standard input and output.
///
/// `end()` (also at `deinit`) closes its standard input, which ends it, and waits for it;
/// one that has not exited within 5 seconds is killed.
final class Child {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var reader: LineReader
  private var ended = false

  /// Starts `RippleCompare --store-child MODE PATH [COUNT]` and waits for its `ready`.
  init?(mode: String, path: String, count: Int? = nil) {
    process.executableURL = Bundle.main.executableURL
    process.arguments = ["--store-child", mode, path] + (count.map { ["\($0)"] } ?? [])
    process.standardInput = input
    process.standardOutput = output
    reader = LineReader(descriptor: output.fileHandleForReading.fileDescriptor)
    do {
      try process.run()
    } catch {
      print("cannot start \(mode) child: \(error)")
      return nil
    }
    guard readLine() == "ready" else {
      print("the \(mode) child did not start")
      end()
      return nil
    }
  }

  deinit { end() }

  /// Sends one line.
  ///
  /// - Returns: Whether it was written.
  func send(_ line: String) -> Bool {
    let bytes = Array((line + "\n").utf8)
    let descriptor = input.fileHandleForWriting.fileDescriptor
    return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
  }

  /// The next line the child wrote, or `nil` at its end or after `timeout` milliseconds.
  func readLine(timeout: Int32 = 10_000) -> String? { reader.readLine(timeout: timeout) }

  /// Closes the child's standard input and waits up to 5 seconds for it to exit, then
  /// kills it.
  func end() {
    guard !ended else { return }
    ended = true
    try? input.fileHandleForWriting.close()
    guard process.processIdentifier > 0 else { return }
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(2_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? output.fileHandleForReading.close()
  }
}

/// Reads lines from a file descriptor, waiting at most a timeout for each.
struct LineReader {
  let descriptor: Int32
  private var pending: [UInt8] = []

  /// Reads from `descriptor`, which stays open: its owner closes it.
  init(descriptor: Int32) { self.descriptor = descriptor }

  /// The next line, without its newline; `nil` at end of file, on an error, or after
  /// `timeout` milliseconds (`-1`: no limit).
  mutating func readLine(timeout: Int32) -> String? {
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, timeout)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      pending += buffer[..<count]
    }
  }
}
