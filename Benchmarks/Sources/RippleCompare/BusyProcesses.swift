import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `RippleCompare --busy N`: N processes that do nothing but spin, for the whole run, so
/// that the contention rows (and every other row) are measured on a machine whose cores
/// something else wants too.
///
/// Each is this executable again, as `RippleCompare --spin PARENT` (see
/// ``spin(_:)``). They are killed at exit — `exit()` from anywhere, or the end of
/// main.swift — by an `atexit` handler; a run that dies without exiting (a trap, a
/// signal) cannot run it, so each spinner also ends by itself once its parent is gone.
enum BusyProcesses {
  // Written before the run starts and read at exit, both on the main thread. The
  // `Process` objects are kept so that Foundation goes on watching their children.
  nonisolated(unsafe) private static var children: [Process] = []

  /// `--spin PARENT` (hidden): spins until `PARENT` is no longer this process's parent.
  ///
  /// The spin is a relaxed atomic add, which the optimiser may not fold away, so the
  /// process is always runnable in user space; every million adds it asks for its parent
  /// (one cheap system call), so it outlives a parent that died by at most milliseconds.
  static func spin(_ arguments: ArraySlice<String>) -> Never {
    guard let parent = arguments.first.flatMap({ pid_t($0) }) else { exit(2) }
    let spins = Atomic<Int>(0)
    while getppid() == parent {
      for _ in 0..<1_000_000 { spins.add(1, ordering: .relaxed) }
    }
    exit(0)
  }

  /// Starts the processes `--busy N` asks for, if any, and arranges for them to be
  /// killed at exit.
  ///
  /// - Returns: How many were started (0 without `--busy`); exits with status 2 when `N`
  ///   is not a number or a process cannot be started.
  static func start(_ arguments: [String]) -> Int {
    guard let index = arguments.firstIndex(of: "--busy") else { return 0 }
    guard arguments.indices.contains(index + 1), let count = Int(arguments[index + 1]),
      count >= 0
    else {
      print("usage: RippleCompare --busy N   (N spinning processes for the whole run)")
      exit(2)
    }
    atexit { BusyProcesses.killAll() }
    for _ in 0..<count {
      let process = Process()
      process.executableURL = Bundle.main.executableURL
      process.arguments = ["--spin", "\(getpid())"]
      do {
        try process.run()
      } catch {
        print("--busy: cannot start a spinning process: \(error)")
        exit(2)  // The atexit handler kills those already started.
      }
      children.append(process)
    }
    let pids = children.map { String($0.processIdentifier) }.joined(separator: " ")
    print("--busy: \(count) spinning process(es): \(pids)")
    return count
  }

  /// Kills and reaps the spinning processes (the `atexit` handler).
  private static func killAll() {
    for child in children {
      kill(child.processIdentifier, SIGKILL)
      // Reaped here so that no spinner outlives the run; if Foundation reaped it first,
      // this returns at once.
      var status: Int32 = 0
      _ = waitpid(child.processIdentifier, &status, 0)
    }
    children = []
  }
}
