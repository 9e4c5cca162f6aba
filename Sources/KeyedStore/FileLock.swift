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
///
/// A store that may read its folder but not write it opens its lock file read-only, or,
/// when there is none and none can be created, goes without: it reads, and refuses every
/// write (``isReadOnly``).
final class FileLock: Sendable {
  let path: String
  /// The open lock file; `-1` for a read-only store without one.
  private let descriptor: Int32
  /// Whether this store can only read: its lock file (or folder) is not writable by it.
  let isReadOnly: Bool

  /// Opens (creating if needed, readable by this user only) the lock file.
  ///
  /// - Throws: ``StoreError/unreadable(path:reason:)`` naming the lock file when it is a
  ///   link, not a regular file, or another user's (see ``FileTrust``);
  ///   ``StoreError/writeFailed(path:reason:)`` naming it when it cannot be opened for
  ///   another reason.
  init(path: String) throws(StoreError) {
    self.path = path
    // Non-blocking, and checked, so that a FIFO at the lock's path cannot block; never
    // through a link, which another user may have put there.
    let flags = O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW
    var fd = open(path, O_RDWR | O_CREAT | flags, 0o600)
    var readOnly = false
    if fd < 0, Self.meansReadOnly(errno) {
      readOnly = true
      fd = open(path, O_RDONLY | flags)
      if fd < 0, errno == ENOENT { fd = -1 } else if fd < 0 { throw Self.openFailure(errno, path) }
    } else if fd < 0 {
      throw Self.openFailure(errno, path)
    }
    if fd >= 0 {
      var info = stat()
      guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        close(fd)
        throw .unreadable(path: path, reason: "the store's lock file is not a regular file")
      }
      do throws(StoreError) {
        try FileTrust.checkOwned(info, at: path, as: .lockFile)
      } catch {
        close(fd)
        throw error
      }
    }
    descriptor = fd
    isReadOnly = readOnly || access(DurableFile.folder(of: path), W_OK | X_OK) != 0
  }

  /// Whether `open` failing with `code` means this user cannot create or write the lock
  /// file, though it may read the store.
  private static func meansReadOnly(_ code: Int32) -> Bool {
    code == EACCES || code == EROFS || code == EPERM
  }

  private static func openFailure(_ code: Int32, _ path: String) -> StoreError {
    if code == ELOOP { return DurableFile.linkRefused(path, .lockFile) }
    return .writeFailed(
      path: path, reason: "cannot open the store's lock file: \(DurableFile.message(code))")
  }

  /// The error every write of a read-only store throws.
  func readOnlyError(for storePath: String) -> StoreError {
    .writeFailed(
      path: storePath,
      reason: "the store is read-only: this user cannot write the folder "
        + "\(DurableFile.folder(of: path)) or the lock file \(path); values staged stay in memory")
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Runs `body` holding the exclusive lock, waiting at most `timeout` for other holders
  /// to finish.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for the lock.
  ///   - storePath: The store file the lock guards, for the error.
  /// - Throws: ``StoreError/writeFailed(path:reason:)`` naming `storePath` and the lock
  ///   file when the lock cannot be taken in time or the store is read-only, or what
  ///   `body` throws.
  func withExclusiveLock<Result>(
    timeout: Duration, for storePath: String, _ body: () throws(StoreError) -> Result
  ) throws(StoreError) -> Result {
    guard !isReadOnly else { throw readOnlyError(for: storePath) }
    try acquire(timeout: timeout, for: storePath, mode: LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Runs `body` holding the shared lock, when there is a lock file: how a read-only
  /// store reads, so that it never sees a writer's file and journal out of step.
  func withSharedLock<Result>(
    timeout: Duration, for storePath: String, _ body: () throws(StoreError) -> Result
  ) throws(StoreError) -> Result {
    guard descriptor >= 0 else { return try body() }
    try acquire(timeout: timeout, for: storePath, mode: LOCK_SH)
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Takes the lock, polling with a growing pause (up to 20 ms) until `timeout` passed:
  /// `flock` itself cannot wait with a deadline.
  private func acquire(timeout: Duration, for storePath: String, mode: Int32) throws(StoreError) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var pause: UInt32 = 200  // microseconds
    while flock(descriptor, mode | LOCK_NB) != 0 {
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
