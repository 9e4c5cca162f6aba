import Synchronization

/// Notices two calls running at once: each call runs its work through ``during(_:)``,
/// and ``overlaps`` counts the calls that found another one inside.
///
/// What a stress test uses to prove that deliveries, observers or callbacks that must
/// never overlap did not. Shared by every module's tests.
public final class OverlapProbe: Sendable {
  private let inside = Atomic<Int>(0)
  /// How many calls found another call inside.
  public let overlaps = Atomic<Int>(0)

  /// A probe that has seen nothing yet.
  public init() {}

  /// Runs `body` as one call, counting an overlap if another call is inside.
  @discardableResult
  public func during<Result>(_ body: () throws -> Result) rethrows -> Result {
    if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
      overlaps.add(1, ordering: .relaxed)
    }
    defer { inside.subtract(1, ordering: .sequentiallyConsistent) }
    return try body()
  }
}
