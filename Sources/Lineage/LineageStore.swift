import ReactiveCore

/// The one lock behind every lineage, and the per-instance record of inheritable values.
///
/// A single lock (rather than one per tree) keeps `reparent(to:)`, which can join two
/// trees, atomic without lock ordering. Reads take it once and mostly hit a cached
/// resolved value.
enum LineageStore {
  /// The lock that guards every ``Ancestor``'s lineage state and every ``Slot``.
  static let lock = Lock()
}

/// One inheritable property of one instance.
final class Slot {
  /// The instance's own value, if it set one.
  var own: Any?
  /// Whether the instance stopped inheriting this property.
  var stopped = false
  /// The effective value last resolved, valid until a change up the chain.
  var cached: Any?
  var isCacheValid = false
  /// The property's default, recorded on first access, for publishers to resolve with.
  var defaultValue: Any?
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
