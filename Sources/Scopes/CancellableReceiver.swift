import ReactiveCore

/// A place to store cancellables that should live exactly while a scope is active.
///
///     somePublisher
///         .sink { print($0) }
///         .store(in: scope.whileActiveReceiver)
///
/// Stored cancellables are cancelled when the scope deactivates. Storing one while the
/// scope is not active cancels it at once.
///
/// - Note: Thread-safe.
public final class CancellableReceiver: @unchecked Sendable {
  /// The lock that guards `isActive` and `stored`.
  private let lock = Lock()
  private var isActive = false
  private var stored: [AnyCancellable] = []

  init() {}

  /// Keeps `cancellable` until the scope deactivates, or cancels it now if the scope is
  /// not active.
  ///
  /// - Parameter cancellable: The subscription to bind to the scope's activity.
  public func receive(_ cancellable: AnyCancellable) {
    let accepted = lock.withLock { () -> Bool in
      guard isActive else { return false }
      stored.append(cancellable)
      return true
    }
    if !accepted { cancellable.cancel() }
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
