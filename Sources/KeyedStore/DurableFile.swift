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
  /// - Parameter offset: Where to start reading; past the end reads nothing.
  /// - Returns: The bytes and the stamp of the file read, or `nil` when no file is there.
  /// - Throws: ``StoreError/notAFile(path:)`` or ``StoreError/unreadable(path:reason:)``.
  ///
  /// Opens without blocking and checks with `fstat` before reading, so that a FIFO,
  /// socket or device at `path` is reported at once instead of blocking the caller.
  static func read(_ path: String, from offset: Int = 0) throws(StoreError) -> (Data, FileStamp)? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == EISDIR || code == ENXIO { throw .notAFile(path: path) }
      throw .unreadable(path: path, reason: message(code))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: message(errno)) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
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
  /// - Parameters:
  ///   - model: The file whose owner and permissions a new file takes when there is none
  ///     at `path` yet (a new journal takes its store file's).
  ///   - fault: A test hook: an `errno` to fail the write with.
  /// - Returns: The stamp of the new file.
  /// - Throws: ``StoreError/diskFull(path:)`` or ``StoreError/writeFailed(path:reason:)``.
  static func replace(
    _ path: String, with data: Data, modelledOn model: String? = nil, fault: Int32? = nil
  ) throws(StoreError) -> FileStamp {
    // The hook fails as creating the temporary file would: before there is one, so that
    // a concurrent look at the folder never finds a failed write's file.
    if let fault { throw failure(fault, path) }
    let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(errno, path) }
    var closed = false
    var renamed = false
    defer {
      if !closed { close(fd) }
      if !renamed { unlink(temporary) }
    }
    if !keepOwnerAndMode(of: path, on: fd), let model { keepOwnerAndMode(of: model, on: fd) }
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
    let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return nil }
      throw failure(errno, path)
    }
    var closed = false
    defer { if !closed { close(fd) } }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure(errno, path) }
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

  /// Gives the new file `fd` the owner (where permitted) and permission bits of the file
  /// at `path`, so that a rename over it undoes neither a `chmod` nor a `chown`. A new
  /// store file keeps the temporary file's 0600.
  ///
  /// - Returns: Whether a regular file was at `path`.
  @discardableResult
  private static func keepOwnerAndMode(of path: String, on fd: Int32) -> Bool {
    var old = stat()
    guard stat(path, &old) == 0, (old.st_mode & S_IFMT) == S_IFREG else { return false }
    // Owner first: changing it may clear set-id bits that the mode then restores.
    if old.st_uid != geteuid() || old.st_gid != getegid() {
      _ = fchown(fd, old.st_uid, old.st_gid)  // EPERM for most users: the file becomes theirs
    }
    _ = fchmod(fd, old.st_mode & 0o7777)
    return true
  }

  /// Resolves a store path once, when the store opens: a relative path against the
  /// working folder, the folder to its real path, and a symbolic link at the file itself
  /// to its target (a chain of them, up to 40), so that the lock, the temporary files
  /// and the rename go beside the real file and a link stays a link. Creates missing
  /// folders (0700) on the way.
  ///
  /// - Returns: The absolute real path of the store file, which may not exist yet.
  /// - Throws: ``StoreError/unreadable(path:reason:)`` naming `path`.
  static func resolve(_ path: String) throws(StoreError) -> String {
    var candidate = path
    if !path.hasPrefix("/") {
      guard let cwd = getcwd(nil, 0) else {
        throw .unreadable(path: path, reason: "no working folder: \(message(errno))")
      }
      candidate = String(cString: cwd) + "/" + path
      free(cwd)
    }
    for _ in 0..<40 {
      createFolder(of: candidate)
      let folder = folder(of: candidate)
      guard let real = realpath(folder, nil) else {
        throw .unreadable(path: path, reason: "cannot resolve \(folder): \(message(errno))")
      }
      let realFolder = String(cString: real)
      free(real)
      let name = lastComponent(of: candidate)
      candidate = realFolder == "/" ? "/" + name : realFolder + "/" + name
      var info = stat()
      guard lstat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else {
        return candidate
      }
      var buffer = [UInt8](repeating: 0, count: 4_096)
      let count = buffer.withUnsafeMutableBytes { bytes in
        readlink(candidate, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
      }
      guard count > 0 else {
        throw .unreadable(
          path: path, reason: "cannot read the link \(candidate): \(message(errno))")
      }
      let target = String(decoding: buffer[0..<count], as: UTF8.self)
      candidate = target.hasPrefix("/") ? target : self.folder(of: candidate) + "/" + target
    }
    throw .unreadable(path: path, reason: "too many levels of symbolic links")
  }

  /// Throws when something other than a regular file is at `path`: checked before
  /// anything opens it, so that a FIFO never blocks.
  ///
  /// - Throws: ``StoreError/notAFile(path:)``.
  static func checkRegularIfPresent(_ path: String) throws(StoreError) {
    var info = stat()
    if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { throw .notAFile(path: path) }
  }

  /// Syncs the folder holding `path`, so that a rename in it is durable. Best effort:
  /// some file systems cannot sync a folder, and the rename already happened.
  static func syncFolder(of path: String) {
    let fd = open(folder(of: path), O_RDONLY | O_CLOEXEC)
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
      let isOld = lstat(temporary, &info) == 0 && Int64(now) - FileStamp(info).modifiedSeconds > 60
      if let pid, pid > 0, pid != getpid(), !isOld, isAlive(pid) { continue }
      unlink(temporary)
    }
  }

  /// Whether a process with this id exists (it may belong to another user).
  static func isAlive(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// Creates the folder holding `path` and its parents, as `mkdir -p` does, readable by
  /// this user only (0700).
  static func createFolder(of path: String) {
    let isAbsolute = path.hasPrefix("/")
    var current = ""
    for component in folder(of: path).split(separator: "/", omittingEmptySubsequences: true) {
      current += current.isEmpty && !isAbsolute ? String(component) : "/" + component
      _ = mkdir(current, 0o700)  // fails harmlessly where the folder exists
    }
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

  private static func failure(_ code: Int32, _ path: String) -> StoreError {
    code == ENOSPC || code == EDQUOT
      ? .diskFull(path: path) : .writeFailed(path: path, reason: message(code))
  }
}
