/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` instance automatically calls ``cancel()`` when deinitialized. The
/// closure (or wrapped cancellable) runs at most once and is released right after, so
/// whatever it captured is freed on cancellation.
///
///     var bag = Set<AnyCancellable>()
///     subject.sink { print($0) }.store(in: &bag)
///
/// - Note: `cancel()` is thread-safe and idempotent.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  /// The lock that guards `canceller`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var canceller: Canceller

  private enum Canceller {
    case closure(() -> Void)
    case object(any Cancellable)
    case done
  }

  /// Initializes the cancellable object with the given cancel-time closure.
  ///
  /// - Parameter cancel: A closure that the `cancel()` method executes.
  public init(_ cancel: @escaping () -> Void) {
    canceller = .closure(cancel)
  }

  /// Initializes the cancellable object with the given cancellable.
  ///
  /// - Parameter canceller: The cancellable that this one cancels.
  public init<C: Cancellable>(_ canceller: C) {
    self.canceller = .object(canceller)
  }

  deinit {
    cancel()
  }

  /// Cancels the activity; later calls do nothing.
  public func cancel() {
    let taken = lock.withLock { () -> Canceller in
      defer { canceller = .done }
      return canceller
    }
    switch taken {
    case .closure(let body): body()
    case .object(let object): object.cancel()
    case .done: break
    }
  }

  /// Whether two cancellables are the same instance.
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

  /// Hashes the instance's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  /// Stores this type-erasing cancellable instance in the specified collection.
  ///
  /// - Parameter collection: The collection in which to store this ``AnyCancellable``.
  public func store<Cancellables: RangeReplaceableCollection>(
    in collection: inout Cancellables
  ) where Cancellables.Element == AnyCancellable {
    collection.append(self)
  }

  /// Stores this type-erasing cancellable instance in the specified set.
  ///
  /// - Parameter set: The set in which to store this ``AnyCancellable``.
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }
}
