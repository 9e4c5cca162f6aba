import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A place to store cancellables that should live exactly while a scope is active.
///
///     somePublisher
///         .sink { print($0) }
///         .store(in: scope.whileActiveReceiver)
///
/// Stored cancellables are cancelled when the scope deactivates. The receiver opens as
/// activation starts, so an override of ``Behavior/willActivate(cancellables:)`` may store
/// into it. Storing one while the scope is not active cancels it at once; debug builds
/// also print a warning to standard error, once per receiver, since that is almost always a
/// mistake (a subscription that never runs).
///
/// - Note: Thread-safe.
public final class CancellableReceiver: @unchecked Sendable {
  /// The lock that guards `isActive` and `stored`.
  private let lock = Lock()
  private var isActive = false
  private var stored: [AnyCancellable] = []
  private var hasWarned = false

  init() {}

  /// Keeps `cancellable` until the scope deactivates, or cancels it now if the scope is
  /// not active.
  ///
  /// - Parameter cancellable: The subscription to bind to the scope's activity.
  public func receive(_ cancellable: AnyCancellable) {
    let (accepted, warn) = lock.withLock { () -> (Bool, Bool) in
      guard isActive else {
        defer { hasWarned = true }
        return (false, !hasWarned)
      }
      stored.append(cancellable)
      return (true, false)
    }
    guard !accepted else { return }
    cancellable.cancel()
    #if DEBUG
      if warn { Self.warnStoredWhileInactive() }
    #else
      _ = warn
    #endif
  }

  /// Says on standard error that a cancellable went into an inactive receiver.
  private static func warnStoredWhileInactive() {
    let message = """
      Scopes: a cancellable was stored into the whileActiveReceiver of a scope that is not \
      active, and was cancelled at once. Store it from willActivate(cancellables:) or while \
      the scope is active (state == .active).

      """
    var bytes = Array(message.utf8)
    _ = write(2, &bytes, bytes.count)
  }

  /// The number of cancellables currently held.
  public var count: Int { lock.withLock { stored.count } }

  func activate() { lock.withLock { isActive = true } }

  func deactivate() {
    let taken = lock.withLock { () -> [AnyCancellable] in
      isActive = false
      defer { stored = [] }
      return stored
    }
    for cancellable in taken { cancellable.cancel() }
  }
}

extension Cancellable {
  /// Binds this cancellable to a scope's activity: it is cancelled when the scope
  /// deactivates, or at once if the scope is not active.
  ///
  /// - Parameter receiver: A scope's ``Scope/whileActiveReceiver``.
  public func store(in receiver: CancellableReceiver) {
    receiver.receive(AnyCancellable(self))
  }
}

extension AnyCancellable {
  /// Binds this cancellable to a scope's activity: it is cancelled when the scope
  /// deactivates, or at once if the scope is not active.
  ///
  /// - Parameter receiver: A scope's ``Scope/whileActiveReceiver``.
  public func store(in receiver: CancellableReceiver) {
    receiver.receive(self)
  }
}
