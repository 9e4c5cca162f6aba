import Foundation
import KeyedStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Users that the tests play, by id: nobody has them, so a file they own belongs to
/// someone other than the test's user, as a file planted by another user would.
private let victim: uid_t = 4_321
private let attacker: uid_t = 4_322

/// Whether the tests run as root, which may give files away and become another user.
private let isRoot = geteuid() == 0

/// The owner, permission bits and bytes of what is at `path` (not following a link).
private struct Planted: Equatable {
  var owner: uid_t
  var mode: mode_t
  var bytes: Data?

  init?(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    owner = info.st_uid
    mode = info.st_mode & 0o7777
    bytes = (info.st_mode & S_IFMT) == S_IFREG ? KeyedStoreTests.bytes(at: path) : nil
  }
}

/// Writes `text` to a new file at `path` owned by `owner` with `mode`.
private func plant(_ text: String, at path: String, owner: uid_t, mode: mode_t = 0o666) {
  write(text, to: path)
  #expect(chown(path, owner, owner) == 0)
  #expect(chmod(path, mode) == 0)
}

/// Makes a folder shared the way `/tmp` is: sticky and writable by everyone.
private func share(_ folder: TemporaryFolder, owner: uid_t = 0) {
  #expect(chown(folder.path, owner, owner) == 0)
  #expect(chmod(folder.path, 0o1777) == 0)
}

/// Opens a store on `path` that throws its typed error.
private func openTyped(_ path: String, ifCorrupt: CorruptFileHandling = .throwError)
  throws(StoreError) -> Store
{
  try Store(persistence: .file(path: path, ifCorrupt: ifCorrupt, changeCheckInterval: nil))
}

/// Runs the test helper as `user` with `arguments`.
private func runChild(as user: uid_t, _ arguments: [String]) throws -> (
  output: String, errors: String, succeeded: Bool
) {
  let program = try #require(childProgram())
  return try ChildProcess(program, ["as-user", "\(user)"] + arguments).wait()
}

/// A file, journal or lock file that another user owns is never adopted: opening or
/// writing gives a typed error naming it, and it keeps its owner, mode and bytes.
@Suite(.enabled(if: isRoot, "needs root to give files to another user"))
struct OthersFilesTests {
  @Test func aStoreFileOfAnotherUserIsRefusedAtOpen() throws {
    let folder = TemporaryFolder()
    let file = #"{"format":"ripple.keyedstore","version":1,"values":{"admin":"injected"}}"#
    plant(file, at: folder.file(), owner: attacker)
    let before = Planted(folder.file())
    do {
      _ = try openTyped(folder.file())
      Issue.record("a store opened another user's file")
    } catch {
      guard case .unreadable(let path, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == folder.file())
      #expect(reason.contains("belongs to user \(attacker)"))
      #expect(error.description.hasPrefix("The store file at \(folder.file())"))
    }
    #expect(Planted(folder.file()) == before)
  }

  /// Root is no exception: root's store never writes into a file another user owns,
  /// even one it wrote itself and that was given away since.
  @Test func rootNeverWritesAFileThatWasGivenAway() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: .someInt)
    try store.flush()
    #expect(chown(folder.file(), victim, victim) == 0)
    let before = Planted(folder.file())
    store.stage(2, for: .someInt)
    #expect(throws: StoreError.self) { try store.flush() }
    #expect(Planted(folder.file()) == before)
    #expect(store.value(for: .someInt) == 2)
    #expect(folder.contents.sorted() == ["store.json", "store.json.lock"])
  }

  /// An empty journal another user planted (mode 0666) before the store's first append:
  /// the append is refused with an error naming the journal, the journal keeps its owner
  /// and mode, and no temporary file is left.
  @Test func aJournalPlantedBeforeTheFirstAppendIsRefused() throws {
    let folder = TemporaryFolder()
    let journaled = Persistence.file(path: folder.file(), changeCheckInterval: nil)
      .journaling(fromFileSize: 0)
    let store = try Store(persistence: journaled)
    store.stage(1, for: .someInt)
    try store.flush()  // the file now has a generation, and no journal yet
    DurableTestFiles.remove(folder.file() + ".journal")
    plant("", at: folder.file() + ".journal", owner: attacker)
    let before = Planted(folder.file() + ".journal")
    store.stage(2, for: .someInt)
    do {
      try store.flush()
      Issue.record("the store wrote into another user's journal")
    } catch {
      // Refused where the store first meets it: reading what changed before the append.
      switch error {
      case .unreadable(let path, let reason), .writeFailed(let path, let reason):
        #expect(path == folder.file() + ".journal")
        #expect(reason.contains("belongs to user \(attacker)"))
        #expect(error.description.lowercased().contains("the store's journal at"))
      default: Issue.record("unexpected \(error)")
      }
    }
    #expect(Planted(folder.file() + ".journal") == before)
    #expect(!folder.contents.contains { $0.contains(".tmp-") })
    #expect(store.value(for: .someInt) == 2)
  }

  @Test func aJournalOfAnotherUserIsRefusedAtOpen() throws {
    let folder = TemporaryFolder()
    write(
      #"{"format":"ripple.keyedstore","version":1,"generation":"00000000000000aa","values":{}}"#,
      to: folder.file())
    plant(
      #"{"format":"ripple.keyedstore.journal","generation":"00000000000000aa"}"# + "\n"
        + #"{"values":{"admin":"injected"}}"# + "\n",
      at: folder.file() + ".journal", owner: attacker)
    let before = Planted(folder.file() + ".journal")
    #expect {
      try openStore(folder.file())
    } throws: { error in
      guard case StoreError.unreadable(let path, _) = error else { return false }
      return path == folder.file() + ".journal"
    }
    #expect(Planted(folder.file() + ".journal") == before)
  }

  /// A lock file planted by another user is refused, and the error calls it the lock
  /// file, not the store file.
  @Test func aLockFileOfAnotherUserIsRefusedAndNamedAsTheLockFile() throws {
    let folder = TemporaryFolder()
    plant("", at: folder.file() + ".lock", owner: attacker)
    do {
      _ = try openTyped(folder.file())
      Issue.record("a store used another user's lock file")
    } catch {
      #expect(error.description.hasPrefix("The store's lock file at \(folder.file()).lock"))
      #expect(!error.description.contains("The store file"))
    }
    #expect(Planted(folder.file())?.owner == nil)
  }

  /// A symbolic link at the journal's path, to another user's readable file: the store
  /// neither reads nor writes through it.
  @Test func aLinkPlantedAtTheJournalIsNeverFollowed() throws {
    let folder = TemporaryFolder()
    let theirs = folder.file("theirs.txt")
    plant("theirs\n", at: theirs, owner: attacker, mode: 0o644)
    let journaled = Persistence.file(path: folder.file(), changeCheckInterval: nil)
      .journaling(fromFileSize: 0)
    let store = try Store(persistence: journaled)
    store.stage(1, for: .someInt)
    try store.flush()
    DurableTestFiles.remove(folder.file() + ".journal")
    #expect(symlink(theirs, folder.file() + ".journal") == 0)
    store.stage(2, for: .someInt)
    #expect(throws: StoreError.self) { try store.flush() }
    #expect(text(at: theirs) == "theirs\n")
    #expect(Planted(theirs)?.mode == 0o644)
  }

  /// Stale temporary files of another user's are theirs: a store never removes them.
  @Test func anotherUsersTemporaryFilesAreLeftAlone() throws {
    let folder = TemporaryFolder()
    let temporary = folder.file("store.json.tmp-1-1")
    plant("theirs", at: temporary, owner: attacker)
    _ = try openStore(folder.file())
    #expect(Planted(temporary)?.bytes == Data("theirs".utf8))
  }
}

/// Links in a shared folder are followed only where the kernel's `protected_symlinks`
/// would follow them, whether or not it is on.
@Suite(.enabled(if: isRoot, "needs root to give links to another user"))
struct SharedFolderLinkTests {
  /// A link another user planted in a sticky, world-writable folder is refused; the
  /// file it points to is neither created nor moved aside.
  @Test(arguments: [CorruptFileHandling.throwError, .moveAside])
  func aLinkOfAnotherUserInAStickyFolderIsRefused(ifCorrupt: CorruptFileHandling) throws {
    let shared = TemporaryFolder()
    share(shared)
    let elsewhere = TemporaryFolder()
    write("not a store", to: elsewhere.file("precious.json"))
    #expect(symlink(elsewhere.file("precious.json"), shared.file()) == 0)
    #expect(lchown(shared.file(), attacker, attacker) == 0)
    do {
      _ = try openTyped(shared.file(), ifCorrupt: ifCorrupt)
      Issue.record("followed another user's link in a sticky folder")
    } catch {
      guard case .unreadable(let path, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == shared.file())
      #expect(reason.contains("protected_symlinks"))
    }
    #expect(text(at: elsewhere.file("precious.json")) == "not a store")
    #expect(elsewhere.contents == ["precious.json"])
  }

  /// The links the kernel follows there are followed too: the user's own, and the
  /// folder owner's.
  @Test func linksOfTheUserOrTheFolderOwnerAreFollowed() throws {
    let shared = TemporaryFolder()
    share(shared, owner: victim)
    let elsewhere = TemporaryFolder()
    #expect(symlink(elsewhere.file("mine.json"), shared.file("mine.json")) == 0)
    #expect(symlink(elsewhere.file("owners.json"), shared.file("owners.json")) == 0)
    #expect(lchown(shared.file("owners.json"), victim, victim) == 0)
    for name in ["mine.json", "owners.json"] {
      let store = try openStore(shared.file(name))
      store.stage(7, for: .someInt)
      try store.flush()
      #expect(try openStore(elsewhere.file(name)).value(for: .someInt) == 7)
    }
  }

  /// The rule holds for a link on the way to the store file, not only at its end.
  @Test func aPlantedLinkToAFolderIsRefusedToo() throws {
    let shared = TemporaryFolder()
    share(shared)
    let elsewhere = TemporaryFolder()
    #expect(symlink(elsewhere.path, shared.file("settings")) == 0)
    #expect(lchown(shared.file("settings"), attacker, attacker) == 0)
    #expect(throws: StoreError.self) { try openStore(shared.file("settings/store.json")) }
    #expect(elsewhere.contents.isEmpty)
  }
}

/// The same, as a user other than root, who cannot override permissions: another user's
/// files in a shared folder are refused at once, and nothing is left behind.
@Suite(.enabled(if: isRoot, "needs root to become another user"))
struct AnotherUserTests {
  @Test func aFilePlantedByAnotherUserIsRefusedAtOnceAndLeavesNothing() throws {
    let shared = TemporaryFolder()
    share(shared)
    plant("", at: shared.file(), owner: attacker)
    let result = try runChild(as: victim, ["writer", shared.file(), "key", "3"])
    #expect(!result.succeeded)
    #expect(result.errors.contains("belongs to user \(attacker)"))
    #expect(Planted(shared.file())?.bytes == Data())
    #expect(shared.contents == ["store.json"])
  }

  @Test func aLinkToAnotherUsersFileIsRefused() throws {
    let shared = TemporaryFolder()
    share(shared)
    let theirs = shared.file("theirs.json")
    plant("", at: theirs, owner: attacker, mode: 0o644)
    #expect(symlink(theirs, shared.file()) == 0)
    #expect(lchown(shared.file(), attacker, attacker) == 0)
    let result = try runChild(as: victim, ["writer", shared.file(), "key", "3"])
    #expect(!result.succeeded)
    #expect(Planted(theirs)?.bytes == Data())
    #expect(Planted(theirs)?.owner == attacker)
  }

  /// A store in a folder the user may read but not write, with no lock file: it reads,
  /// says it is read-only, and refuses to write with an error that says so.
  @Test func aReadOnlyFolderCanBeRead() throws {
    let folder = TemporaryFolder()
    #expect(chown(folder.path, victim, victim) == 0)
    let setUp = try runChild(as: victim, ["writer", folder.file(), "key", "1"])
    #expect(setUp.succeeded, "\(setUp.errors)")
    write(
      #"{"format":"ripple.keyedstore","version":1,"values":{"text":"kept"}}"#, to: folder.file())
    #expect(chown(folder.file(), victim, victim) == 0)
    DurableTestFiles.remove(folder.file() + ".lock")
    #expect(chmod(folder.path, 0o555) == 0)
    let result = try runChild(as: victim, ["readonly", folder.file()])
    #expect(result.succeeded, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "value kept")
    #expect(lines.contains("readOnly true"))
    #expect(lines.contains { $0.hasPrefix("flush ") && $0.contains("read-only") })
    #expect(lines.last == "value changed")
    #expect(text(at: folder.file()).contains("kept"))
    #expect(folder.contents == ["store.json"])
  }
}

/// A write that fails at a normal exit is never silent.
@Suite struct ExitFailureTests {
  @Test func aFailedFlushAtExitIsWrittenToStandardErrorAndHandedToTheHook() throws {
    let folder = TemporaryFolder()
    let program = try #require(childProgram())
    let result = try ChildProcess(program, ["exit-full", folder.file(), "secret-value-42"]).wait()
    #expect(result.errors.contains("not saved"))
    #expect(result.errors.contains(folder.file()))
    #expect(result.errors.contains("full"))
    #expect(!result.errors.contains("secret-value-42"))
    #expect(result.output.contains("handler "))
    #expect(!result.output.contains("secret-value-42"))
  }
}

/// Removes files for the tests, without following links.
enum DurableTestFiles {
  static func remove(_ path: String) { _ = unlink(path) }
}
