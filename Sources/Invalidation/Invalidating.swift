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
/// Without options, a change invalidates the display: `@Invalidating var title = ""` is
/// `@Invalidating(.display) var title = ""`, the invalidation a property that only changes
/// what is drawn needs. (Before, it invalidated nothing, and a page showed stale output.)
///
/// - Note: Use it on properties of classes that conform to ``RenderNode``. Like UIKit
///   views, nodes are confined to one thread at a time.
@propertyWrapper
public struct Invalidating<Value> {
  // The state lives in a box. The enclosing-instance subscripts below are always inlined
  // into the node's accessor, where the storage key path is a literal the optimizer folds
  // into a plain field load: a set then costs a load, a store and a comparison.
  @usableFromInline
  let box: InvalidatingBox<Value>

  /// Creates an invalidating property for an `Equatable` value.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - invalidations: The invalidations to run, in order, when the value changes;
  ///     `.display` when there are none.
  public init<each Option: RenderNodeInvalidating>(
    wrappedValue: Value, _ invalidations: repeat each Option
  ) where Value: Equatable {
    box = InvalidatingBox(
      value: wrappedValue, invalidations: Self.list(repeat each invalidations), isEqual: nil)
  }

  /// Creates an invalidating property that decides equality with a closure, for values
  /// that are not `Equatable` or whose `==` is not the change you care about.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - invalidations: The invalidations to run, in order, when the value changes;
  ///     `.display` when there are none.
  ///   - isEqual: Returns `true` when two values count as unchanged.
  public init<each Option: RenderNodeInvalidating>(
    wrappedValue: Value, _ invalidations: repeat each Option,
    isEqual: @escaping (Value, Value) -> Bool
  ) {
    box = InvalidatingBox(
      value: wrappedValue, invalidations: Self.list(repeat each invalidations), isEqual: isEqual)
  }

  /// The options as written; none means ``Invalidations/Display`` (`.display`).
  private static func list<each Option: RenderNodeInvalidating>(
    _ options: repeat each Option
  ) -> [any RenderNodeInvalidating] {
    var list: [any RenderNodeInvalidating] = []
    for option in repeat each options { list.append(option) }
    return list.isEmpty ? [Invalidations.Display()] : list
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
  @inlinable @inline(__always)
  public static subscript<Node: RenderNode>(
    _enclosingInstance node: Node,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Node, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Node, Invalidating<Value>>
  ) -> Value {
    get { node[keyPath: storageKeyPath].box.value }
    set {
      // The node owns the box and outlives this call, so holding it is a wasted retain.
      unowned(unsafe) let box = node[keyPath: storageKeyPath].box
      let oldValue = box.value
      box.value = newValue
      let unchanged =
        if box.comparesWithEquatable {
          // Once specialised for the concrete type, the cast folds away and `==` is inlined.
          equalAsEquatable(oldValue, newValue)
        } else {
          box.isEqual!(oldValue, newValue)
        }
      if !unchanged { box.invalidate(node) }
    }
  }
}

/// The storage of one `@Invalidating` property. Nodes are confined to one thread, so it
/// needs no lock.
@usableFromInline
final class InvalidatingBox<Value> {
  // Confined to the node's thread, like the node, so the dynamic exclusivity check (a
  // runtime call on every access) buys nothing.
  @usableFromInline
  @exclusivity(unchecked)
  var value: Value
  @usableFromInline
  let invalidations: [any RenderNodeInvalidating]
  /// The caller's equality, or `nil` for an `Equatable` value's own `==`.
  @usableFromInline
  let isEqual: ((Value, Value) -> Bool)?
  // Tested before touching `isEqual`, so the common path never copies a closure.
  @usableFromInline
  let comparesWithEquatable: Bool

  init(
    value: Value, invalidations: [any RenderNodeInvalidating],
    isEqual: ((Value, Value) -> Bool)?
  ) {
    self.value = value
    self.invalidations = invalidations
    self.isEqual = isEqual
    comparesWithEquatable = isEqual == nil
  }

  /// Runs every invalidation, in order. Kept out of line so that the inlined setter stays
  /// small.
  @usableFromInline
  @inline(never)
  func invalidate(_ node: some RenderNode) {
    for invalidation in invalidations { invalidation.invalidate(node: node) }
  }
}

/// `==` for a value known at run time to be `Equatable`. Opening the existential in a
/// local generic function is the form the optimizer folds, once specialised, into the
/// concrete type's `==` with no cast left (a separate generic function is not folded).
@inlinable @inline(__always)
func equalAsEquatable<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
  func equal<Known: Equatable>(_ lhs: Known, _ rhs: Value) -> Bool { lhs == (rhs as! Known) }
  let equatable: any Equatable = lhs as! any Equatable
  return equal(equatable, rhs)
}

/// The backport's name for ``Invalidating``, so code written against ViewInvalidating
/// compiles unchanged.
public typealias ViewInvalidating = Invalidating
