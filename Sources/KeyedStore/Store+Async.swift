import Dispatch
import ReactiveCore

extension Store {
  /// Opens a store, like ``init(persistence:)``, without blocking the calling thread:
  /// opening a file waits for its lock and reads it, which must not hold a thread of
  /// Swift's cooperative pool (a server's request handler runs on one).
  ///
  ///     let store = try await Store.open(persistence: .file(path: path))
  ///
  /// - Parameter persistence: ``Persistence/memory``, or a file.
  /// - Returns: The open store.
  /// - Throws: What ``init(persistence:)`` throws.
  public static func open(persistence: Persistence) async throws(StoreError) -> Store {
    try await BlockingWork.run { () throws(StoreError) in try Store(persistence: persistence) }
  }

  /// Opens a store that runs delayed stages on `scheduler`, like
  /// ``init(scheduler:persistence:)``, without blocking the calling thread.
  ///
  /// - Parameters:
  ///   - scheduler: Where ``stage(_:for:after:)`` schedules its work.
  ///   - persistence: ``Persistence/memory``, or a file.
  /// - Returns: The open store.
  /// - Throws: What ``init(scheduler:persistence:)`` throws.
  public static func open<S: Scheduler & Sendable>(scheduler: S, persistence: Persistence)
    async throws(StoreError) -> Store
  {
    try await BlockingWork.run { () throws(StoreError) in
      try Store(scheduler: scheduler, persistence: persistence)
    }
  }

  /// The store's calls that may wait — on the file's lock, the disk, or another process —
  /// as `async` functions that never block the calling thread.
  ///
  ///     router.put("/flags/:name") { request, context in
  ///         let value = try await request.decode(as: Bool.self, context: context)
  ///         store.stage(value, for: StoreKey<Bool>(name))   // never waits
  ///         try await store.async.flush()                  // waits without blocking
  ///         return HTTPResponse.Status.noContent
  ///     }
  ///
  /// A stage, a read and an observer never wait on the disk and need no async form. On a
  /// persisted store, ``flush()``, ``close()``, ``refresh()``, ``update(_:for:_:)`` and a
  /// batch (``batch(_:)``, ``stage(_:)``) of persisting keys hold the file's lock and may
  /// sync the disk: from Swift concurrency, call them here. Each runs the blocking call on
  /// a thread of its own and resumes the caller when it returns; cancelling the calling
  /// task does not stop a call already under way (a half-done write would help no one).
  /// The blocking forms stay, for threads that may block.
  public var async: AsyncStore { AsyncStore(store: self) }
}

/// A ``Store``'s calls that may wait, as `async` functions that never block the calling
/// thread: ``Store/async``.
public struct AsyncStore: Sendable {
  /// The store the calls go to.
  public let store: Store

  /// Returns once every value committed before the call is durable, like
  /// ``Store/flush()``.
  ///
  /// - Throws: What ``Store/flush()`` throws.
  public func flush() async throws(StoreError) {
    try await BlockingWork.run { [store] () throws(StoreError) in try store.flush() }
  }

  /// Flushes, then stops writing and watching the file, like ``Store/close()``.
  ///
  /// - Throws: What ``Store/flush()`` throws.
  public func close() async throws(StoreError) {
    try await BlockingWork.run { [store] () throws(StoreError) in try store.close() }
  }

  /// Reads the file now, if it changed, and delivers what other stores wrote, like
  /// ``Store/refresh()``.
  ///
  /// - Throws: What ``Store/refresh()`` throws.
  public func refresh() async throws(StoreError) {
    try await BlockingWork.run { [store] () throws(StoreError) in try store.refresh() }
  }

  /// Atomically reads, transforms and writes a key's value, like
  /// ``Store/update(_:for:_:)``: on a persisted store, against the file and every process
  /// that shares it.
  ///
  ///     let count = await store.async.update(0, for: .launchCount) { $0 += 1 }
  ///
  /// - Parameters:
  ///   - initial: The value to start from when the key has none.
  ///   - key: The key to update.
  ///   - body: Transforms the value in place; may run more than once, on another thread.
  /// - Returns: The value committed.
  @discardableResult
  public func update<Value: Sendable & Equatable>(
    _ initial: Value, for key: StoreKey<Value>, _ body: @escaping @Sendable (inout Value) -> Void
  ) async -> Value {
    await BlockingWork.run { [store] () -> Value in store.update(initial, for: key, body) }
  }

  /// Stages several values of different keys atomically, like ``Store/stage(_:)``.
  ///
  /// - Parameter values: The values to stage, by key.
  /// - Throws: ``StoreError/typeMismatch(key:expected:actual:)``; nothing is staged then.
  public func stage(_ values: [AnyStoreKey: any Sendable]) async throws(StoreError) {
    try await BlockingWork.run { [store] () throws(StoreError) in try store.stage(values) }
  }

  /// Stages several typed values atomically, like ``Store/batch(_:)``.
  ///
  /// - Parameter build: Adds the values to stage; runs before the call waits.
  /// - Throws: ``StoreError`` if a key's name is already used with another type; nothing
  ///   is staged then.
  public func batch(_ build: (inout StoreBatch) -> Void) async throws(StoreError) {
    var batch = StoreBatch()
    build(&batch)
    try await stage(batch.values)
  }
}

/// Runs calls that may block on threads of their own, so that an awaiting task's
/// cooperative thread is free meanwhile.
enum BlockingWork {
  /// Where blocking calls run: concurrent, so that one call waiting on a lock does not
  /// hold up another store's.
  static let queue = DispatchQueue(
    label: "Ripple.KeyedStore.blocking", qos: .userInitiated, attributes: .concurrent)

  /// Runs `body` on ``queue`` and returns what it returned, or throws what it threw.
  static func run<Result: Sendable>(
    _ body: @escaping @Sendable () throws(StoreError) -> Result
  ) async throws(StoreError) -> Result {
    let outcome: Swift.Result<Result, StoreError> = await withCheckedContinuation { continuation in
      queue.async {
        continuation.resume(returning: Swift.Result { () throws(StoreError) in try body() })
      }
    }
    return try outcome.get()
  }

  /// Runs `body`, which cannot fail, on ``queue``.
  static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: body()) }
    }
  }
}
