import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `KeyedStoreCrashChild` helper, built beside the test binary.
func childProgram() -> String? {
  var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<5 {
    let candidate = folder.appendingPathComponent("KeyedStoreCrashChild").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    folder.deleteLastPathComponent()
  }
  return nil
}

/// Why a child could not be started.
struct SpawnFailure: Error, CustomStringConvertible {
  let code: Int32
  var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
}

/// A running `KeyedStoreCrashChild`, its output captured through pipes.
///
/// Started with `posix_spawn` rather than Foundation's `Process`, which leaves a weak
/// reference's side table behind on Linux (LeakSanitizer reports it under `.ci/asan`).
final class ChildProcess {
  let pid: pid_t
  private let output: Int32
  private let errors: Int32

  init(_ program: String, _ arguments: [String]) throws {
    var outputPipe: [Int32] = [0, 0]
    var errorPipe: [Int32] = [0, 0]
    guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else { throw SpawnFailure(code: errno) }
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t?
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
    for descriptor in outputPipe + errorPipe {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let environment =
      ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + environment { free(pointer) } }
    var child = pid_t()
    let code = posix_spawn(&child, program, &actions, nil, argv, environment)
    close(outputPipe[1])
    close(errorPipe[1])
    guard code == 0 else {
      close(outputPipe[0])
      close(errorPipe[0])
      throw SpawnFailure(code: code)
    }
    pid = child
    output = outputPipe[0]
    errors = errorPipe[0]
  }

  /// Kills the child with SIGKILL, as a crash or a power cut would stop it.
  func kill() {
    #if canImport(Glibc)
      _ = Glibc.kill(pid, SIGKILL)
    #else
      _ = Darwin.kill(pid, SIGKILL)
    #endif
  }

  /// Waits for the child to end.
  ///
  /// - Returns: Its standard output and error, and whether it exited normally with 0.
  func wait() -> (output: String, errors: String, succeeded: Bool) {
    let out = Self.readAll(output)
    let err = Self.readAll(errors)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // Exited (no signal number in the low bits) with status 0.
    return (out, err, status & 0x7f == 0 && (status >> 8) & 0xff == 0)
  }

  private static func readAll(_ descriptor: Int32) -> String {
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
