import Synchronization

private let nextIdentifier = Atomic<UInt64>(0)

/// A unique identifier for identifying publisher streams.
///
/// To conform to ``CustomCombineIdentifierConvertible`` in a subscription or subject that
/// you implement as a structure, create an instance of `CombineIdentifier` and store it as
/// a property.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  let rawValue: UInt64

  /// Creates a unique identifier.
  @inlinable
  public init() {
    rawValue = CombineIdentifier.next()
  }

  /// Creates an identifier derived from an object's identity.
  ///
  /// - Parameter obj: The object whose identity the identifier takes.
  public init(_ obj: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
  }

  @usableFromInline
  static func next() -> UInt64 {
    // High bit set so that counter values never collide with object addresses.
    nextIdentifier.wrappingAdd(1, ordering: .relaxed).newValue | (1 << 63)
  }

  /// A textual representation of the identifier, in hexadecimal.
  public var description: String { "0x" + String(rawValue, radix: 16) }
}
