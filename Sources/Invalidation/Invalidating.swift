/// A property wrapper that invalidates its ``RenderNode`` when the value changes.
///
///     final class Badge: HeadlessNode {
///         @Invalidating(.layout) var cornerRadius: Double = 12
///         @Invalidating(.layout, .constraints) var height: Double = 200
///         @Invalidating(.display, isEqual: { $0.id == $1.id }) var model = Model(id: 1)
///     }
///
/// Setting a value stores it first, then — if it differs from the old value — runs every
/// listed invalidation once, in the order written (a repeated option runs again). Setting
/// an equal value runs none, but still stores it, so a type whose `==` ignores some fields
/// never loses what you set. There is no limit on the number of options.
///
/// - Note: Use it on properties of classes that conform to ``RenderNode``. Like UIKit
///   views, nodes are confined to one thread at a time.
@propertyWrapper
public struct Invalidating<Value> {
  // The state lives in a box reached through one read-only key-path projection per
  // access; mutating through the storage key path cost two more projections per set.
  @usableFromInline
  let box: InvalidatingBox<Value>

  /// Creates an invalidating property for an `Equatable` value.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - invalidations: The invalidations to run, in order, when the value changes.
  public init<each Option: RenderNodeInvalidating>(
    wrappedValue: Value, _ invalidations: repeat each Option
  ) where Value: Equatable {
    self.init(
      wrappedValue: wrappedValue, options: Self.list(repeat each invalidations), isEqual: ==)
  }

  /// Creates an invalidating property that decides equality with a closure, for values
  /// that are not `Equatable` or whose `==` is not the change you care about.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - invalidations: The invalidations to run, in order, when the value changes.
  ///   - isEqual: Returns `true` when two values count as unchanged.
  public init<each Option: RenderNodeInvalidating>(
    wrappedValue: Value, _ invalidations: repeat each Option,
    isEqual: @escaping (Value, Value) -> Bool
  ) {
    self.init(
      wrappedValue: wrappedValue, options: Self.list(repeat each invalidations), isEqual: isEqual)
  }

  private init(
    wrappedValue: Value, options: [any RenderNodeInvalidating],
    isEqual: @escaping (Value, Value) -> Bool
  ) {
    box = InvalidatingBox(value: wrappedValue, invalidations: options, isEqual: isEqual)
  }

  private static func list<each Option: RenderNodeInvalidating>(
    _ options: repeat each Option
  ) -> [any RenderNodeInvalidating] {
    var list: [any RenderNodeInvalidating] = []
    for option in repeat each options { list.append(option) }
    return list
  }

  /// `@Invalidating` is only available on properties of classes that conform to
  /// ``RenderNode``.
  @available(
    *, unavailable, message: "@Invalidating is only available on properties of RenderNode classes"
  )
  public var wrappedValue: Value {
    get { fatalError("@Invalidating is only available on properties of RenderNode classes") }
    set { fatalError("@Invalidating is only available on properties of RenderNode classes") }
  }

  /// Reads and writes the value through the enclosing node, invalidating it on change.
  @inlinable
  public static subscript<Node: RenderNode>(
    _enclosingInstance node: Node,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Node, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Node, Invalidating<Value>>
  ) -> Value {
    get { node[keyPath: storageKeyPath].box.value }
    set {
      let box = node[keyPath: storageKeyPath].box
      let oldValue = box.value
      box.value = newValue
      guard !box.isEqual(oldValue, newValue) else { return }
      for invalidation in box.invalidations { invalidation.invalidate(node: node) }
    }
  }
}

/// The storage of one `@Invalidating` property. Nodes are confined to one thread, so it
/// needs no lock.
@usableFromInline
final class InvalidatingBox<Value> {
  @usableFromInline
  var value: Value
  @usableFromInline
  let invalidations: [any RenderNodeInvalidating]
  @usableFromInline
  let isEqual: (Value, Value) -> Bool

  init(
    value: Value, invalidations: [any RenderNodeInvalidating],
    isEqual: @escaping (Value, Value) -> Bool
  ) {
    self.value = value
    self.invalidations = invalidations
    self.isEqual = isEqual
  }
}

/// The backport's name for ``Invalidating``, so code written against ViewInvalidating
/// compiles unchanged.
public typealias ViewInvalidating = Invalidating
