import ReactiveCore

/// The protocol ``Ancestor`` conforms to, so that its key-path methods can take a key path
/// rooted in the static type of the instance: `heir.publisher(for: \.size)` rather than
/// `heir.publisher(for: \Theme.size)`.
///
///     class Theme: Ancestor { @Inherited var size: Int = 12 }
///     let heir = Theme().descendant()
///     let sizes = heir.publisher(for: \.size).sink { print($0) }
///     // Prints "12"
///     heir.stopInheriting(\.size)
///
/// A class method cannot name the instance's own type in a parameter (`Self` is only
/// allowed in results there), a protocol extension can; that is all this protocol is for.
/// You never conform to it yourself: every member is for ``Ancestor`` subclasses only.
/// The forms that take a key path spelled through a class (`\Theme.size`) remain, for a
/// property of a superclass of the static type, or on an instance typed `Ancestor`.
public protocol LineageMember: AnyObject {}

extension LineageMember where Self: Ancestor {
  /// A publisher of the effective value of an `@Inherited` property of this instance's
  /// own type, so `\.size` is enough; see ``Ancestor/publisher(for:)``.
  ///
  ///     let sizes = heir.publisher(for: \.size).sink { print($0) }
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  /// - Returns: A publisher of the property's effective values: the current one on
  ///   subscription, then each change.
  public func publisher<Value: Equatable>(
    for keyPath: ReferenceWritableKeyPath<Self, Value>
  ) -> AnyPublisher<Value, Never> {
    effectiveValues(for: keyPath)
  }

  /// Stops inheriting an `@Inherited` property of this instance's own type, so `\.size`
  /// is enough; see ``Ancestor/stopInheriting(_:)``.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  public func stopInheriting<Value>(_ keyPath: ReferenceWritableKeyPath<Self, Value>) {
    changeInheriting(stopped: true, keyPath)
  }

  /// Resumes inheriting an `@Inherited` property of this instance's own type, so
  /// `\.size` is enough; see ``Ancestor/resumeInheriting(_:)``.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  public func resumeInheriting<Value>(_ keyPath: ReferenceWritableKeyPath<Self, Value>) {
    changeInheriting(stopped: false, keyPath)
  }

  /// Whether an `@Inherited` property of this instance's own type reads through to the
  /// ancestors, so `\.size` is enough; see ``Ancestor/isInheriting(_:)``.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  /// - Returns: `true` if the value comes from an ancestor (or the default at the root).
  public func isInheriting<Value>(_ keyPath: ReferenceWritableKeyPath<Self, Value>) -> Bool {
    inheritsValue(keyPath)
  }
}
