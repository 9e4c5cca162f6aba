import Foundation
import KeyedStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The permission bits of what is at `path` (not following a link), or `nil`.
private func mode(at path: String) -> mode_t? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  return info.st_mode & 0o7777
}

/// Whether a symbolic link is at `path`.
private func isSymlink(_ path: String) -> Bool {
  var info = stat()
  return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
}

/// Holds the advisory lock of a store file's lock file, as another process's store would.
private final class HeldLock {
  let descriptor: Int32
  init(_ lockPath: String) {
    descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
  }
  deinit { close(descriptor) }
}

@Suite struct FilePermissionTests {
  @Test func newFilesArePrivateAndCreatedFoldersToo() throws {
    let folder = TemporaryFolder()
    let path = folder.file("settings/app/store.json")
    let store = try openStore(path)
    store.stage(1, for: .someInt)
    try store.flush()
    #expect(mode(at: path) == 0o600)
    #expect(mode(at: path + ".lock") == 0o600)
    #expect(mode(at: folder.file("settings")) == 0o700)
    #expect(mode(at: folder.file("settings/app")) == 0o700)
  }

  @Test func aWriteKeepsTheModeTheUserGaveTheFile() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: .someInt)
    try store.flush()
    chmod(folder.file(), 0o640)
    store.stage(2, for: .someInt)
    try store.flush()
    #expect(mode(at: folder.file()) == 0o640)
    #expect(try openStore(folder.file()).value(for: .someInt) == 2)
  }
  // A file given to another user is refused, even by root: see OthersFilesTests.
}

@Suite struct FileLinkTests {
  /// A settings file kept behind a symlink, as dotfile managers keep them: writes go to
  /// the target, and the link stays a link.
  @Test func aSymlinkStaysASymlink() throws {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file("dotfiles"), withIntermediateDirectories: true)
    let target = folder.file("dotfiles/store.json")
    let link = folder.file("store.json")
    #expect(symlink(target, link) == 0)
    let store = try openStore(link)
    store.stage(3, for: .someInt)
    try store.flush()
    #expect(isSymlink(link))
    #expect(try openStore(target).value(for: .someInt) == 3)
    #expect(folder.contents.sorted() == ["dotfiles", "store.json"])
    store.stage(4, for: .someInt)
    try store.flush()
    #expect(isSymlink(link))
    #expect(try openStore(target).value(for: .someInt) == 4)
  }

  /// A relative link, resolved against the link's own folder.
  @Test func aRelativeSymlinkIsFollowed() throws {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file("real"), withIntermediateDirectories: true)
    #expect(symlink("real/store.json", folder.file("link.json")) == 0)
    let store = try openStore(folder.file("link.json"))
    store.stage(5, for: .someInt)
    try store.flush()
    #expect(isSymlink(folder.file("link.json")))
    #expect(try openStore(folder.file("real/store.json")).value(for: .someInt) == 5)
  }

  /// Stores opened through a link and through its target lock the same lock file.
  @Test func storesOpenedThroughALinkAndItsTargetExcludeEachOther() throws {
    let folder = TemporaryFolder()
    let target = folder.file("target.json")
    let link = folder.file("link.json")
    #expect(symlink(target, link) == 0)
    let held = HeldLock(target + ".lock")
    #expect(throws: StoreError.self) {
      try Store(
        persistence: .file(path: link, changeCheckInterval: nil, lockTimeout: .milliseconds(50)))
    }
    _ = held
  }

  /// A store opened on a relative path keeps writing to the same file after the process
  /// changes its working folder.
  @Test func aRelativePathIsResolvedOnceAtOpen() throws {
    let folder = TemporaryFolder()
    let elsewhere = TemporaryFolder()
    let previous = FileManager.default.currentDirectoryPath
    defer { _ = chdir(previous) }
    #expect(chdir(folder.path) == 0)
    let store = try openStore("store.json")
    #expect(chdir(elsewhere.path) == 0)
    store.stage(6, for: .someInt)
    try store.flush()
    #expect(try openStore(folder.file()).value(for: .someInt) == 6)
    #expect(elsewhere.contents.isEmpty)
  }
}

@Suite struct SpecialFileTests {
  /// A FIFO at the path would block `open` until a writer came: the store reports it as
  /// not a file at once instead.
  @Test func aFIFOAtThePathIsNotAFile() throws {
    let folder = TemporaryFolder()
    #expect(mkfifo(folder.file(), 0o600) == 0)
    #expect(throws: StoreError.notAFile(path: folder.file())) { try openStore(folder.file()) }
  }

  @Test func aDeviceAtThePathIsNotAFile() throws {
    #expect(throws: StoreError.notAFile(path: "/dev/null")) { try openStore("/dev/null") }
  }

  /// A FIFO that replaces the file of an open store fails its refresh and its flush,
  /// instead of blocking them.
  @Test func aFIFOThatAppearsLaterFailsInsteadOfBlocking() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: .someInt)
    try store.flush()
    #expect(unlink(folder.file()) == 0)
    #expect(mkfifo(folder.file(), 0o600) == 0)
    #expect(throws: StoreError.notAFile(path: folder.file())) { try store.refresh() }
    store.stage(2, for: .someInt)
    #expect(throws: StoreError.notAFile(path: folder.file())) { try store.flush() }
    #expect(store.value(for: .someInt) == 2)
  }
}

@Suite struct LockTimeoutTests {
  /// Another store or process that holds the file's lock too long makes opening fail
  /// with an error naming the file and its lock, after the timeout — not hang.
  @Test func openingAFileLockedTooLongThrowsNamingThePath() throws {
    let folder = TemporaryFolder()
    let held = HeldLock(folder.file() + ".lock")
    do {
      _ = try Store(
        persistence: .file(
          path: folder.file(), changeCheckInterval: nil, lockTimeout: .milliseconds(50)))
      Issue.record("expected a lock timeout")
    } catch {
      guard case .writeFailed(let path, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == folder.file())
      #expect(reason.contains(folder.file() + ".lock"))
    }
    _ = held
  }

  /// A flush that cannot get the lock in time throws, keeps the values in memory, and a
  /// later flush, once the lock is free, writes them.
  @Test func aFlushThatCannotLockThrowsAndALaterOneWrites() throws {
    let folder = TemporaryFolder()
    let store = try Store(
      persistence: .file(
        path: folder.file(), changeCheckInterval: nil, lockTimeout: .milliseconds(50)))
    var held: HeldLock? = HeldLock(folder.file() + ".lock")
    store.stage(7, for: .someInt)
    #expect(throws: StoreError.self) { try store.flush() }
    #expect(store.value(for: .someInt) == 7)
    held = nil
    _ = held
    try store.flush()
    #expect(try openStore(folder.file()).value(for: .someInt) == 7)
  }

  /// An update that cannot get the lock in time commits in memory, and the next flush
  /// reports that it could not be made atomic with the file.
  @Test func anUpdateThatCannotLockCommitsInMemoryAndFlushReportsIt() throws {
    let folder = TemporaryFolder()
    let store = try Store(
      persistence: .file(
        path: folder.file(), changeCheckInterval: nil, lockTimeout: .milliseconds(50)))
    var held: HeldLock? = HeldLock(folder.file() + ".lock")
    #expect(store.update(0, for: .counter) { $0 += 1 } == 1)
    held = nil
    _ = held
    #expect(throws: StoreError.self) { try store.flush() }
    try store.flush()
    #expect(try openStore(folder.file()).value(for: .counter) == 1)
  }
}
