/// A protocol for uniquely identifying publisher streams.
///
/// If you create a custom ``Subscription`` or ``Subscriber`` type, implement this
/// protocol so that development tools can uniquely identify publisher chains in your app.
/// A class gets a default implementation derived from its identity; a structure stores a
/// ``CombineIdentifier``.
public protocol CustomCombineIdentifierConvertible {
  /// A unique identifier for identifying publisher streams.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// An identifier derived from the object's identity.
  public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
