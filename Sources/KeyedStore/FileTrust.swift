#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which files a store trusts: only its own. A store may live in a folder that other
/// users can write (`/tmp`, a shared project folder), and another user may have planted a
/// file or a symbolic link at any of its paths before it first wrote there. Adopting such
/// a file would let its owner read the store's values, or write values the store would
/// return; following such a link would let its owner decide where the store writes.
///
/// The rules, the same for root as for anyone:
/// - the store file, its journal and its lock file are read, appended to or replaced only
///   when they belong to the effective user;
/// - a symbolic link on the way to the store file is followed only where the kernel's
///   `protected_symlinks` would follow it, whether or not that setting is on: in a sticky
///   folder that everyone may write, only a link owned by the user or by the folder's
///   owner.
enum FileTrust {
  /// What a store's files are, for errors that name them.
  enum Role: String {
    case storeFile = "the store file"
    case journal = "the store's journal"
    case lockFile = "the store's lock file"
  }

  /// Throws unless `info` describes a file that belongs to the effective user.
  ///
  /// - Throws: ``StoreError/unreadable(path:reason:)`` naming `path`, its owner and why
  ///   the store refuses it.
  static func checkOwned(_ info: stat, at path: String, as role: Role) throws(StoreError) {
    let user = geteuid()
    guard info.st_uid != user else { return }
    throw .unreadable(
      path: path,
      reason: "\(role.rawValue) belongs to user \(info.st_uid), not to this user (\(user)); "
        + "a store reads and writes only its own files, so it was left untouched")
  }

  /// Whether the kernel's `protected_symlinks` rule lets this user follow the link
  /// described by `link`, found in the folder described by `folder`: anywhere but in a
  /// sticky, world-writable folder, and there only when the link belongs to the user or
  /// to the folder's owner.
  static func mayFollow(link: stat, in folder: stat) -> Bool {
    let isSticky = folder.st_mode & S_ISVTX != 0
    let isWorldWritable = folder.st_mode & S_IWOTH != 0
    guard isSticky && isWorldWritable else { return true }
    return link.st_uid == geteuid() || link.st_uid == folder.st_uid
  }
}

extension DurableFile {
  /// Resolves a store path once, when the store opens: a relative path against the
  /// working folder, then each component in turn, following symbolic links (a chain of
  /// up to 40) as the kernel would, so that the lock, the temporary files and the rename
  /// go beside the real file and a link stays a link. Creates missing folders (0700) on
  /// the way.
  ///
  /// A link that the kernel's `protected_symlinks` rule would refuse is refused here too
  /// (see ``FileTrust``): resolving a link by reading it would otherwise follow one that
  /// another user planted in a shared folder.
  ///
  /// - Returns: The absolute real path of the store file, which may not exist yet.
  /// - Throws: ``StoreError/unreadable(path:reason:)`` naming `path`.
  static func resolve(_ path: String) throws(StoreError) -> String {
    var absolute = path
    if !path.hasPrefix("/") {
      guard let cwd = getcwd(nil, 0) else {
        throw .unreadable(path: path, reason: "no working folder: \(message(errno))")
      }
      absolute = String(cString: cwd) + "/" + path
      free(cwd)
    }
    // Components still to walk, last first; `resolved` is the real path walked so far.
    var pending = components(of: absolute).reversed() as [Substring]
    var resolved = ""
    var links = 0
    while let component = pending.popLast() {
      if component == "." { continue }
      if component == ".." {
        resolved = resolved.isEmpty ? "" : folder(of: resolved)
        if resolved == "/" { resolved = "" }
        continue
      }
      let next = resolved + "/" + component
      var info = stat()
      guard lstat(next, &info) == 0 else {
        let code = errno
        guard code == ENOENT else {
          throw .unreadable(path: path, reason: "cannot resolve \(next): \(message(code))")
        }
        if pending.isEmpty { return next }  // the store file itself may not exist yet
        guard mkdir(next, 0o700) == 0 || errno == EEXIST else {
          throw .unreadable(
            path: path, reason: "cannot create the folder \(next): \(message(errno))")
        }
        pending.append(component)  // look again: what is there now may be a link
        continue
      }
      guard (info.st_mode & S_IFMT) == S_IFLNK else {
        if !pending.isEmpty, (info.st_mode & S_IFMT) != S_IFDIR {
          throw .unreadable(path: path, reason: "\(next) is not a folder")
        }
        resolved = next
        continue
      }
      links += 1
      guard links <= 40 else {
        throw .unreadable(path: path, reason: "too many levels of symbolic links")
      }
      try checkMayFollow(link: info, at: next, in: resolved.isEmpty ? "/" : resolved, for: path)
      let target = try readLink(next, for: path)
      if target.hasPrefix("/") { resolved = "" }
      pending.append(contentsOf: components(of: target).reversed())
    }
    return resolved.isEmpty ? "/" : resolved
  }

  /// The non-empty components of a path.
  private static func components(of path: String) -> [Substring] {
    path.split(separator: "/", omittingEmptySubsequences: true)
  }

  /// Throws when the link at `linkPath`, in `folder`, is one the kernel's
  /// `protected_symlinks` rule would not follow.
  private static func checkMayFollow(
    link: stat, at linkPath: String, in folder: String, for path: String
  ) throws(StoreError) {
    var folderInfo = stat()
    guard lstat(folder, &folderInfo) == 0 else {
      throw .unreadable(path: path, reason: "cannot resolve \(folder): \(message(errno))")
    }
    guard FileTrust.mayFollow(link: link, in: folderInfo) else {
      throw .unreadable(
        path: path,
        reason: "the symbolic link \(linkPath) belongs to user \(link.st_uid), in a shared "
          + "sticky folder owned by user \(folderInfo.st_uid); the store follows no link there "
          + "that belongs to neither this user nor the folder's owner (as protected_symlinks)")
    }
  }

  /// The target of the link at `linkPath`.
  private static func readLink(_ linkPath: String, for path: String) throws(StoreError) -> String {
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let count = buffer.withUnsafeMutableBytes { bytes in
      readlink(linkPath, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
    }
    guard count > 0 else {
      throw .unreadable(path: path, reason: "cannot read the link \(linkPath): \(message(errno))")
    }
    return String(decoding: buffer[0..<count], as: UTF8.self)
  }
}
