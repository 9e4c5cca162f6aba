/// The ``FanIn`` rule of `merge` and `MergeMany`: every value goes downstream as it
/// comes, in its own type (every upstream has the downstream's); downstream finishes once
/// every upstream has.
@usableFromInline
struct MergeRule<Output>: FanInRule {
  @usableFromInline
  let sides: Int
  @usableFromInline
  var finished = 0

  /// A rule for `sides` upstreams.
  @inlinable
  init(sides: Int) { self.sides = sides }

  /// Merge passes downstream demand to every upstream, as Combine's does.
  @inlinable
  static var forwardsDemand: Bool { true }

  /// Counts the finished upstreams.
  @inlinable
  mutating func sideFinished(_ side: Int) -> Bool {
    finished += 1
    return finished == sides
  }

  /// Every value passes as it is.
  @inlinable
  static func accept(_ rule: inout MergeRule, _ value: Output) -> Output? { value }
}
