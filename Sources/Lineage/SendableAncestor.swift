/// A `Sendable` handle on any ancestor, for handing it to a `@Sendable` closure — a
/// server's request handler, a `Task`, a `DispatchQueue` block — without a box of your own.
///
///     final class Theme: Ancestor { @Inherited var accent: String? }
///
///     let theme = SendableAncestor(Theme())
///     Task.detached { theme.member.accent = "teal" }   // from any thread
///
/// ``Ancestor`` is an open class that is deliberately not `Sendable`, so that your
/// subclasses need not be. What it defines is thread-safe — `@Inherited` reads and writes,
/// ``Ancestor/reparent(to:)``, ``Ancestor/descendant(inheritsChangeNotifications:)``,
/// `publisher(for:)` and the inheritance switches — so a handle may carry any
/// ancestor to any thread. A plain stored property your subclass adds is yours to keep
/// safe.
public struct SendableAncestor<Member: Ancestor>: @unchecked Sendable {
  /// The ancestor.
  public let member: Member

  /// Wraps `member`, to hand it to another thread.
  ///
  /// - Parameter member: Any ancestor.
  public init(_ member: Member) { self.member = member }
}

extension SendableAncestor: Equatable {
  /// Whether both handles hold the same ancestor.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.member === rhs.member }
}

extension SendableAncestor: Hashable {
  /// Hashes the ancestor's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(member)) }
}
