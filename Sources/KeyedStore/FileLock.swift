#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory lock (`flock`) on `<store file>.lock`, held around every read-merge-write
/// of the store file, so that two stores — in one process or in two — never write over
/// each other's values.
///
/// The lock lives on a file beside the store file, not on the store file itself: each
/// write renames a new file over the store file, and a lock on the old inode would
/// protect nothing. `flock` locks belong to an open file description, so two stores in
/// one process, each with its own descriptor, exclude each other as two processes do;
/// the kernel releases the lock of a process that dies.
final class FileLock: Sendable {
  let path: String
  private let descriptor: Int32

  /// Opens (creating if needed, readable by this user only) the lock file.
  ///
  /// - Throws: ``StoreError/writeFailed(path:reason:)`` when it cannot be created.
  init(path: String) throws(StoreError) {
    self.path = path
    // Non-blocking, and checked, so that a FIFO at the lock's path cannot block.
    let fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw .writeFailed(
        path: path, reason: "cannot open the lock file: \(DurableFile.message(errno))")
    }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw .writeFailed(path: path, reason: "the lock file is not a regular file")
    }
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// Runs `body` holding the exclusive lock, waiting at most `timeout` for other holders
  /// to finish.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for the lock.
  ///   - storePath: The store file the lock guards, for the error.
  /// - Throws: ``StoreError/writeFailed(path:reason:)`` naming `storePath` and the lock
  ///   file when the lock cannot be taken in time, or what `body` throws.
  func withExclusiveLock<Result>(
    timeout: Duration, for storePath: String, _ body: () throws(StoreError) -> Result
  ) throws(StoreError) -> Result {
    try acquire(timeout: timeout, for: storePath)
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Takes the lock, polling with a growing pause (up to 20 ms) until `timeout` passed:
  /// `flock` itself cannot wait with a deadline.
  private func acquire(timeout: Duration, for storePath: String) throws(StoreError) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var pause: UInt32 = 200  // microseconds
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      guard code == EWOULDBLOCK else {
        throw .writeFailed(
          path: storePath, reason: "cannot lock \(path): \(DurableFile.message(code))")
      }
      guard clock.now < deadline else {
        throw .writeFailed(
          path: storePath,
          reason: "another store or process has held the lock file \(path) for more than "
            + "\(timeout) (the lock timeout)")
      }
      usleep(pause)
      pause = min(pause * 2, 20_000)
    }
  }
}
