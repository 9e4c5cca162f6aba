import ReactiveCore

/// A property of an ``Ancestor`` whose unset value reads through to the ancestors.
///
///     final class Person: Ancestor {
///         @Inherited var lastName: String?            // nil until set here or above
///     }
///     final class SectionAttributes: Ancestor {
///         @Inherited var insets: Insets = .zero       // the default at the root
///     }
///
/// Setting a value shadows the ancestors; setting an optional back to `nil` unsets it, so
/// it inherits again. A non-optional value is unset with
/// ``Ancestor/resumeInheriting(_:)``. Setting an own value equal to the inherited one
/// changes nothing observable.
@propertyWrapper
public struct Inherited<Value> {
  // Each instance's wrapper owns the box that holds its state; the accessors below are
  // inlined into the class, where the storage key path folds into a field load, so a
  // read is one lock and a cached value.
  @usableFromInline
  let box: InheritedBox<Value>

  /// Creates an inheritable property whose value at the root is `wrappedValue`.
  ///
  /// - Parameter wrappedValue: The default, used when no instance up the chain set one.
  public init(wrappedValue: Value) {
    // An optional declared without an initializer arrives here as `nil`; setting it back
    // to `nil` must unset it.
    box = InheritedBox(defaultValue: wrappedValue) { ($0 as? any OptionalValue)?.isNone ?? false }
  }

  /// Creates an inheritable optional property, `nil` until set here or above.
  public init<Wrapped>() where Value == Wrapped? {
    box = InheritedBox(defaultValue: nil) { $0 == nil }
  }

  /// A non-optional `@Inherited` property needs a default, the value at the root:
  /// `@Inherited var accent: Color = .blue`. Without one, Swift reported "class has no
  /// initializers"; this names the fix instead.
  @available(
    *, unavailable,
    message:
      "a non-optional @Inherited property needs a default, the value at the root: write '@Inherited var name: Type = value', or make it optional ('Type?')"
  )
  public init() {
    fatalError("a non-optional @Inherited property needs a default")
  }

  /// `@Inherited` is only available on properties of ``Ancestor`` subclasses.
  @available(
    *, unavailable, message: "@Inherited is only available on properties of Ancestor subclasses"
  )
  public var wrappedValue: Value {
    get { fatalError("@Inherited is only available on properties of Ancestor subclasses") }
    set { fatalError("@Inherited is only available on properties of Ancestor subclasses") }
  }

  /// Reads the effective value, or sets the instance's own value.
  @inlinable @inline(__always)
  public static subscript<Root: Ancestor>(
    _enclosingInstance instance: Root,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Root, Inherited<Value>>
  ) -> Value {
    get {
      // The instance owns the box and outlives this call, so holding it is a wasted retain.
      unowned(unsafe) let box = instance[keyPath: storageKeyPath].box
      if let value = box.cachedValue(in: instance) { return value }
      return box.resolve(in: instance, key: wrappedKeyPath, storage: storageKeyPath)
    }
    set {
      unowned(unsafe) let box = instance[keyPath: storageKeyPath].box
      box.write(newValue, in: instance, key: wrappedKeyPath, storage: storageKeyPath)
    }
  }
}

extension Inherited: Sendable where Value: Sendable {}

extension Ancestor {
  /// A publisher of the effective value of an `@Inherited` property: the current value
  /// on subscription, then each change — whether the instance set it, an ancestor's
  /// change showed through, or stopping/resuming inheritance changed what it reads.
  ///
  ///     let cancellable = victoire.publisher(for: \Person.lastName).sink { print($0 ?? "-") }
  ///     arthur.lastName = "Prewett"          // Prints "Prewett" (it shows through)
  ///     victoire.lastName = "Lupin"          // Prints "Lupin"
  ///     arthur.lastName = "Weasley"          // nothing: shadowed by Victoire's own value
  ///
  /// It never publishes an equal value twice in a row, and nothing when an ancestor
  /// changes behind an own value. An instance created with
  /// `inheritsChangeNotifications: false` publishes only its own changes.
  ///
  /// On an instance of a subclass, `victoire.publisher(for: \.lastName)` is enough (see
  /// ``LineageMember``); this form takes a key path spelled through any class.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  /// - Returns: A publisher of the property's effective values.
  public func publisher<Root: Ancestor, Value: Equatable>(
    for keyPath: ReferenceWritableKeyPath<Root, Value>
  ) -> AnyPublisher<Value, Never> {
    effectiveValues(for: keyPath)
  }

  func effectiveValues<Root: Ancestor, Value: Equatable>(
    for keyPath: ReferenceWritableKeyPath<Root, Value>
  ) -> AnyPublisher<Value, Never> {
    guard let root = self as? Root else {
      preconditionFailure("\(type(of: self)) has no property \(keyPath)")
    }
    // Reading once resolves the value; the subject then holds the last value sent. The
    // key is the one the property is registered under, whichever class spells it.
    let (keyPath, current) = root.registeredKey(for: keyPath)
    return LineageStore.lock.withLock { () -> AnyPublisher<Value, Never> in
      if let existing = observers[keyPath]?.subject as? CurrentValueSubject<Value, Never> {
        return existing.eraseToAnyPublisher()
      }
      let subject = CurrentValueSubject<Value, Never>(current)
      let last = LockedBox(current)
      observers[keyPath] = EffectiveValueObserver(subject: subject) { [unowned self] in
        // Reading the property above registered its box under this key path.
        let value = (slots[keyPath] as? InheritedBox<Value>)?.resolveLocked(in: self) ?? current
        let changed = last.withLock { previous -> Bool in
          guard previous != value else { return false }
          previous = value
          return true
        }
        return changed ? { subject.send(value) } : nil
      }
      return subject.eraseToAnyPublisher()
    }
  }
}

/// Lets `@Inherited` recognise `nil` whatever the wrapped type.
protocol OptionalValue {
  var isNone: Bool { get }
}

extension Optional: OptionalValue {
  var isNone: Bool { self == nil }
}
