import Foundation
import KeyedStore
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Holds a store file's lock, as another process's store would, until released.
private final class LockHolder: Sendable {
  private let descriptor: Int32
  init(_ lockPath: String) {
    descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
  }
  func release() { close(descriptor) }
}

@Suite struct StoreAsyncTests {
  /// Opening, updating, staging a batch, flushing and closing work from Swift concurrency,
  /// with the same results as the blocking calls: 8 tasks × 50 updates end at exactly 400.
  @Test func everyBlockingCallHasAnAsyncForm() async throws {
    let folder = TemporaryFolder()
    let store = try await Store.open(
      persistence: .file(path: folder.file(), changeCheckInterval: nil))
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<50 { await store.async.update(0, for: .counter) { $0 += 1 } }
        }
      }
    }
    try await store.async.batch { batch in
      batch.stage(true, for: .someBool)
      batch.stage("async", for: .someString)
    }
    try await store.async.flush()
    let reopened = try openStore(folder.file())
    #expect(reopened.value(for: .counter) == 400)
    #expect(reopened.value(for: .someString) == "async")
    try await reopened.async.refresh()
    try await store.async.close()
    #expect(store.value(for: .counter) == 400)
  }

  /// The async forms wait without holding a thread of the cooperative pool: with more
  /// flushes waiting on a held file lock than the pool has threads, other tasks still
  /// run, and the flushes finish once the lock is free.
  @Test func waitingCallsLeaveThePoolFree() async throws {
    let folder = TemporaryFolder()
    let store = try Store(
      persistence: .file(
        path: folder.file(), changeCheckInterval: nil, lockTimeout: .seconds(30)))
    let holder = LockHolder(folder.file() + ".lock")
    let finished = Recorder<Int>()
    let waiters = ProcessInfo.processInfo.activeProcessorCount * 4
    let flushes = Task {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<waiters {
          group.addTask {
            store.stage(index, for: StoreKey<Int>("key.\(index)"))
            try await store.async.flush()
            finished.append(index)
          }
        }
        try await group.waitForAll()
      }
    }
    // Give every flush time to start waiting, then check the pool still runs tasks.
    for _ in 0..<20 { await Task.yield() }
    try await Task.sleep(for: .milliseconds(50))
    let other = await Task.detached { 42 }.value
    #expect(other == 42)
    #expect(finished.values.isEmpty)
    holder.release()
    try await flushes.value
    #expect(finished.values.count == waiters)
    #expect(try openStore(folder.file()).value(for: StoreKey<Int>("key.0")) == 0)
  }

  /// An async call throws the blocking call's typed error.
  @Test func asyncCallsThrowTheSameErrors() async throws {
    let folder = TemporaryFolder()
    write("not a store", to: folder.file())
    await #expect(throws: StoreError.self) {
      try await Store.open(persistence: .file(path: folder.file(), changeCheckInterval: nil))
    }
  }
}
