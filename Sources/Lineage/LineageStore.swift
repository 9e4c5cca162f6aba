import ReactiveCore

/// The one lock behind every lineage, and the per-instance record of inheritable values.
///
/// A single lock (rather than one per tree) keeps `reparent(to:)`, which can join two
/// trees, atomic without lock ordering. Reads take it once and mostly hit a cached
/// resolved value.
@usableFromInline
enum LineageStore {
  /// The lock that guards every ``Ancestor``'s lineage state and every ``Slot``.
  @usableFromInline
  static let lock = Lock()
}

/// What the lineage needs to know of one inheritable property of one instance, whatever
/// its value type. Lock held for every access.
@usableFromInline
class Slot {
  /// Whether the instance stopped inheriting this property.
  final var stopped = false
  /// Whether the resolved effective value is current; cleared by a change up the chain.
  @usableFromInline
  @exclusivity(unchecked)
  final var isCacheValid = false

  @usableFromInline
  init() {}

  /// Whether the instance set its own value.
  var hasOwnValue: Bool { false }

  /// Forgets the instance's own value, so that it inherits again.
  func clearOwnValue() {}
}

/// Watches one property of one instance and publishes its effective value on change.
final class EffectiveValueObserver {
  let subject: AnyObject
  /// Resolves the current effective value and, if it differs from the last one sent,
  /// returns the send to perform after unlocking. Lock held.
  let refresh: () -> (() -> Void)?

  init(subject: AnyObject, refresh: @escaping () -> (() -> Void)?) {
    self.subject = subject
    self.refresh = refresh
  }
}

/// A weak reference to a descendant.
struct WeakAncestor {
  weak var value: Ancestor?
}
