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

  /// Opens (creating if needed) the lock file.
  ///
  /// - Throws: ``StoreError/writeFailed(path:reason:)`` when it cannot be created.
  init(path: String) throws(StoreError) {
    self.path = path
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .writeFailed(
        path: path, reason: "cannot open the lock file: \(DurableFile.message(errno))")
    }
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// Runs `body` holding the exclusive lock, waiting for other holders to finish.
  func withExclusiveLock<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError)
    -> Result
  {
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw .writeFailed(path: path, reason: "cannot lock: \(DurableFile.message(errno))")
      }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }
}
