import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// Serialises ``Ancestor/registeredKey(for:)``, so that one read at a time is watched.
  static let captureLock = Lock()

  /// The calling thread's identity, never zero.
  static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  /// Records that `slot` was read on `instance`, if the thread that asked to watch reads
  /// it, and it is the first slot read. Lock held.
  @usableFromInline
  static func noteRead(of slot: Slot, in instance: Ancestor) {
    guard instance.capturedSlot == nil, instance.capturingThread == currentThread else { return }
    instance.capturedSlot = slot
  }
}

extension Ancestor {
  /// The key path under which `keyPath`'s property is registered, and its value.
  ///
  /// A property is registered under the key path spelled through the class that declares
  /// it (`\Person.lastName`); the same property spelled through a subclass
  /// (`\Wizard.lastName`, with `Wizard: Person`) is a different key path. Reading the
  /// property while watching which slot answers finds the registered one.
  func registeredKey<Root: Ancestor, Value>(for keyPath: KeyPath<Root, Value>) -> (
    key: AnyKeyPath, value: Value
  ) {
    guard let root = self as? Root else {
      preconditionFailure("\(type(of: self)) is not a \(Root.self)")
    }
    return LineageStore.captureLock.withLock {
      let thread = LineageStore.currentThread
      LineageStore.lock.withLock {
        capturingThread = thread
        capturedSlot = nil
      }
      let value = root[keyPath: keyPath]
      let key = LineageStore.lock.withLock { () -> AnyKeyPath in
        defer {
          capturingThread = 0
          capturedSlot = nil
        }
        guard let slot = capturedSlot else { return keyPath }
        return slots.first { $0.value === slot }?.key ?? keyPath
      }
      return (key, value)
    }
  }
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
