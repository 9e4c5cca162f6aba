#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  private let systemRead = Glibc.read
#elseif canImport(Musl)
  private let systemRead = Musl.read
#elseif canImport(Darwin)
  private let systemRead = Darwin.read
#endif

/// What identifies one version of a file: a rename gives a new inode, a write a new size
/// or modification time. The change watcher compares these instead of reading the file.
struct FileStamp: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modifiedSeconds: Int64
  var modifiedNanoseconds: Int64

  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
      modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
    #else
      modifiedSeconds = Int64(info.st_mtim.tv_sec)
      modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    #endif
  }
}

/// Reads and replaces a file with POSIX calls, so that a reader only ever sees a whole
/// old file or a whole new one, and a replacement survives power loss once written.
enum DurableFile {
  /// The file's stamp, or `nil` when nothing is at `path`.
  static func stamp(_ path: String) -> FileStamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileStamp(info)
  }

  /// Reads the whole file, or what follows `offset` in it.
  ///
  /// - Parameters:
  ///   - offset: Where to start reading; past the end reads nothing.
  ///   - role: What the file is to the store, for errors.
  /// - Returns: The bytes and the stamp of the file read, or `nil` when no file is there.
  /// - Throws: ``StoreError/notAFile(path:)`` or ``StoreError/unreadable(path:reason:)``,
  ///   also for a symbolic link (the path was resolved when the store opened: a link there
  ///   now was put there since) and for a file that belongs to another user.
  ///
  /// Opens without blocking and checks with `fstat` before reading, so that a FIFO,
  /// socket or device at `path` is reported at once instead of blocking the caller.
  static func read(_ path: String, from offset: Int = 0, as role: FileTrust.Role = .storeFile)
    throws(StoreError) -> (Data, FileStamp)?
  {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == EISDIR || code == ENXIO { throw .notAFile(path: path) }
      if code == ELOOP { throw linkRefused(path, role) }
      throw .unreadable(path: path, reason: message(code))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: message(errno)) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
    try FileTrust.checkOwned(info, at: path, as: role)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    if offset > 0, lseek(fd, off_t(offset), SEEK_SET) < 0 {
      throw .unreadable(path: path, reason: message(errno))
    }
    var data = Data()
    data.reserveCapacity(max(0, Int(info.st_size) - offset))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: message(errno))
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return (data, FileStamp(info))
  }

  /// Replaces the file at `path` with `data`, atomically and durably: writes a temporary
  /// file beside it, syncs it, renames it over the old file, then syncs the folder so
  /// that the rename itself survives a crash. A failure leaves the old file untouched.
  ///
  /// The file replaced must be this user's (see ``FileTrust``): a file of another user's
  /// at `path` is refused, not replaced, and its owner and mode are never copied. The
  /// temporary file is created new (`O_EXCL`, never through a link) with mode 0600 from
  /// its first byte, and gets the group and permission bits of the user's file it
  /// replaces.
  ///
  /// - Parameters:
  ///   - model: The file whose group and permissions a new file takes when there is none
  ///     at `path` yet (a new journal takes its store file's).
  ///   - role: What the file is to the store, for errors.
  ///   - fault: A test hook: an `errno` to fail the write with.
  /// - Returns: The stamp of the new file.
  /// - Throws: ``StoreError/diskFull(path:)`` or ``StoreError/writeFailed(path:reason:)``.
  static func replace(
    _ path: String, with data: Data, modelledOn model: String? = nil,
    as role: FileTrust.Role = .storeFile, fault: Int32? = nil
  ) throws(StoreError) -> FileStamp {
    // The hook fails as creating the temporary file would: before there is one, so that
    // a concurrent look at the folder never finds a failed write's file.
    if let fault { throw failure(fault, path) }
    let existing = try ownFile(at: path, as: role)
    let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(errno, path) }
    var closed = false
    var renamed = false
    defer {
      if !closed { close(fd) }
      if !renamed { unlink(temporary) }
    }
    if let existing {
      keepGroupAndMode(of: existing, on: fd)
    } else if let model, let modelInfo = trustedFile(at: model) {
      keepGroupAndMode(of: modelInfo, on: fd)
    }
    var written = 0
    while written < data.count {
      let count = data.withUnsafeBytes { bytes in
        write(fd, bytes.baseAddress! + written, bytes.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(errno, path)
      }
      written += count
    }
    guard fsync(fd) == 0 else { throw failure(errno, path) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure(errno, path) }
    closed = true
    guard close(fd) == 0 else { throw failure(errno, path) }
    guard rename(temporary, path) == 0 else { throw failure(errno, path) }
    renamed = true
    syncFolder(of: path)
    return FileStamp(info)
  }

  /// Appends `data` to the file at `path` and syncs it, after cutting the file back to
  /// `end` when it is longer (a write cut short by a killed writer left bytes there).
  /// A failure cuts the file back to `end` again, so that the file never keeps half of
  /// `data`. Call holding the file's lock.
  ///
  /// - Parameters:
  ///   - end: The length the file had after the last whole write.
  ///   - inode: The file this writer knows; another (or none) at `path` is not appended to.
  ///   - fault: A test hook: an `errno` to fail the write with.
  /// - Returns: The stamp of the file appended to, or `nil` when `path` holds no file,
  ///   another file, or one shorter than `end` (someone else changed it): then the caller
  ///   replaces it instead.
  /// - Throws: ``StoreError/diskFull(path:)`` or ``StoreError/writeFailed(path:reason:)``.
  static func append(
    _ path: String, _ data: Data, at end: Int, inode: FileStamp, fault: Int32? = nil
  ) throws(StoreError) -> FileStamp? {
    if let fault { throw failure(fault, path) }
    let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else {
      if errno == ENOENT { return nil }
      if errno == ELOOP { throw linkRefused(path, .journal, writing: true) }
      throw failure(errno, path)
    }
    var closed = false
    defer { if !closed { close(fd) } }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure(errno, path) }
    guard info.st_uid == geteuid() else { return nil }  // replaced, and refused there
    let current = FileStamp(info)
    guard (info.st_mode & S_IFMT) == S_IFREG, current.device == inode.device,
      current.inode == inode.inode, current.size >= Int64(end)
    else { return nil }
    if current.size > Int64(end), ftruncate(fd, off_t(end)) != 0 { throw failure(errno, path) }
    var written = 0
    while written < data.count {
      let count = data.withUnsafeBytes { bytes in
        pwrite(fd, bytes.baseAddress! + written, bytes.count - written, off_t(end + written))
      }
      if count < 0 {
        if errno == EINTR { continue }
        let code = errno
        _ = ftruncate(fd, off_t(end))
        throw failure(code, path)
      }
      written += count
    }
    guard fsync(fd) == 0 else {
      let code = errno
      _ = ftruncate(fd, off_t(end))
      throw failure(code, path)
    }
    guard fstat(fd, &info) == 0 else { throw failure(errno, path) }
    closed = true
    // Closing after the write is what inotify reports to the other stores (IN_CLOSE_WRITE).
    guard close(fd) == 0 else { throw failure(errno, path) }
    return FileStamp(info)
  }

  /// Removes the file at `path`, if there is one. Best effort: what is left is stale.
  static func remove(_ path: String) {
    _ = unlink(path)
  }

  /// What is at `path`, when it is a regular file of this user's; `nil` when nothing is.
  ///
  /// - Throws: ``StoreError/writeFailed(path:reason:)`` when a link, another kind of file,
  ///   or a file of another user's is there: the store neither replaces nor adopts it.
  static func ownFile(at path: String, as role: FileTrust.Role) throws(StoreError) -> stat? {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw failure(errno, path) }
      return nil
    }
    if (info.st_mode & S_IFMT) == S_IFLNK { throw linkRefused(path, role, writing: true) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
    do throws(StoreError) {
      try FileTrust.checkOwned(info, at: path, as: role)
    } catch {
      guard case .unreadable(_, let reason) = error else { throw error }
      throw .writeFailed(path: path, reason: reason)
    }
    return info
  }

  /// What is at `path`, when it is a regular file of this user's; otherwise `nil`, and
  /// the new file keeps its 0600.
  private static func trustedFile(at path: String) -> stat? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid()
    else { return nil }
    return info
  }

  /// Gives the new file `fd` the group (where permitted) and permission bits of the
  /// user's own file described by `old`, so that a rename over it undoes neither a
  /// `chmod` nor a `chgrp`. Set-id bits are not copied: a store file is no program.
  private static func keepGroupAndMode(of old: stat, on fd: Int32) {
    // A group the user is not in stays the user's: EPERM leaves the file private, which
    // is what the mode then describes to fewer people.
    if old.st_gid != getegid() { _ = fchown(fd, uid_t.max, old.st_gid) }
    _ = fchmod(fd, old.st_mode & 0o777)
  }

  /// The error for a symbolic link found where the store's own file should be.
  static func linkRefused(_ path: String, _ role: FileTrust.Role, writing: Bool = false)
    -> StoreError
  {
    let reason =
      "\(role.rawValue) is a symbolic link now; the store resolved its links when it opened, "
      + "and follows none put there since, so it was left untouched"
    return writing
      ? .writeFailed(path: path, reason: reason) : .unreadable(path: path, reason: reason)
  }

  /// Throws when something other than a regular file of this user's is at `path`:
  /// checked before anything opens it or creates a file beside it, so that a FIFO never
  /// blocks and another user's file is refused before the store changes anything.
  ///
  /// - Throws: ``StoreError/notAFile(path:)``, or ``StoreError/unreadable(path:reason:)``
  ///   for another user's file.
  static func checkRegularIfPresent(_ path: String, as role: FileTrust.Role) throws(StoreError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
    try FileTrust.checkOwned(info, at: path, as: role)
  }

  /// Syncs the folder holding `path`, so that a rename in it is durable. Best effort:
  /// some file systems cannot sync a folder, and the rename already happened.
  static func syncFolder(of path: String) {
    let fd = open(folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  /// Moves a corrupt file aside, to `<name>.corrupt-<milliseconds since 1970>`.
  ///
  /// - Returns: Where it went.
  static func moveAside(_ path: String) throws(StoreError) -> String {
    let milliseconds = Int64((Date().timeIntervalSince1970 * 1_000).rounded())
    let destination = "\(path).corrupt-\(milliseconds)"
    guard rename(path, destination) == 0 else { throw failure(errno, path) }
    syncFolder(of: path)
    return destination
  }

  /// Removes temporary files that a writer killed mid-write (or a process that exited
  /// mid-write) left beside `path`: `<name>.tmp-<pid>-<n>` whose process is gone, is this
  /// one, or that is over a minute old (the pid may have been reused). Call only while
  /// holding the file's lock: every live writer holds it while its temporary file exists,
  /// so the rule only guards against a lock file that someone deleted meanwhile.
  static func removeStaleTemporaries(of path: String) {
    let name = lastComponent(of: path)
    let folder = folder(of: path)
    guard let dir = opendir(folder) else { return }
    defer { closedir(dir) }
    let prefix = "\(name).tmp-"
    let now = time(nil)
    while let entry = readdir(dir) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard entryName.hasPrefix(prefix) else { continue }
      let temporary = "\(folder)/\(entryName)"
      let pid = entryName.dropFirst(prefix.count).split(separator: "-").first.flatMap {
        pid_t($0)
      }
      var info = stat()
      // Another user's file is theirs to remove, even one named like ours.
      guard lstat(temporary, &info) == 0, info.st_uid == geteuid() else { continue }
      let isOld = Int64(now) - FileStamp(info).modifiedSeconds > 60
      if let pid, pid > 0, pid != getpid(), !isOld, isAlive(pid) { continue }
      unlink(temporary)
    }
  }

  /// Whether a process with this id exists (it may belong to another user).
  static func isAlive(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// The file name at the end of `path`.
  static func lastComponent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// The folder holding `path` (`.` for a bare file name).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// A readable message for an `errno` value.
  static func message(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  static func failure(_ code: Int32, _ path: String) -> StoreError {
    code == ENOSPC || code == EDQUOT
      ? .diskFull(path: path) : .writeFailed(path: path, reason: message(code))
  }
}
