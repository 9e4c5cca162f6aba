import Synchronization

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
  /// Set by the first `cancel()`. Winning the exchange gives that call sole access to
  /// `canceller` from then on, so no lock is needed: one atomic instruction, not two.
  @usableFromInline
  let isCancelled = Atomic(false)
  // One class reference (16 bytes with its witness table) rather than an enum over a
  // closure and an existential (41 bytes): every `sink` returns one of these, so it is
  // most of the memory a live subscription costs. Set before the instance is shared,
  // then touched only by the `cancel()` that wins `isCancelled`, or by `deinit`.
  @usableFromInline
  @exclusivity(unchecked)
  var canceller: (any Cancellable & AnyObject)?

  /// Initializes the cancellable object with the given cancel-time closure.
  ///
  /// - Parameter cancel: A closure that the `cancel()` method executes.
  public init(_ cancel: @escaping () -> Void) {
    canceller = ClosureCanceller(cancel)
  }

  /// Wraps a cancellable class instance; what `sink` and `assign` use, with no cast.
  @inlinable
  init(object: any Cancellable & AnyObject) {
    canceller = object
  }

  /// Initializes the cancellable object with the given cancellable.
  ///
  /// - Parameter canceller: The cancellable that this one cancels.
  @inlinable
  public init<C: Cancellable>(_ canceller: C) {
    if C.self is AnyObject.Type {
      self.canceller = (canceller as! any Cancellable & AnyObject)
    } else {
      self.canceller = ValueCanceller(canceller)
    }
  }

  deinit {
    if !isCancelled.load(ordering: .acquiring) { canceller?.cancel() }
  }

  /// Cancels the activity; later calls do nothing.
  public func cancel() {
    guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let taken = canceller
    canceller = nil
    taken?.cancel()
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

/// Runs a closure when cancelled. `AnyCancellable` calls it at most once and then drops
/// it, which releases the closure.
final class ClosureCanceller: Cancellable, @unchecked Sendable {
  private let body: () -> Void

  init(_ body: @escaping () -> Void) { self.body = body }

  func cancel() { body() }
}

/// Holds a cancellable that is not a class, so that `AnyCancellable` can store one
/// reference whatever it wraps.
@usableFromInline
final class ValueCanceller<Wrapped: Cancellable>: Cancellable {
  @usableFromInline
  let wrapped: Wrapped

  @inlinable
  init(_ wrapped: Wrapped) { self.wrapped = wrapped }

  @inlinable
  func cancel() { wrapped.cancel() }
}
