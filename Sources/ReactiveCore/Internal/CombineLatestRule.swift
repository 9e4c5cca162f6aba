/// The ``FanIn`` rule of `combineLatest` for up to four upstreams, generic over the
/// largest arity: each upstream's latest value in its own type, and the function that
/// builds the downstream's tuple once every upstream has one. A smaller arity fills the
/// unused slots with `Void` values from the start.
///
/// Downstream finishes when every upstream has finished, or as soon as one finishes
/// without ever having sent a value (no tuple can come any more), as Combine does.
@usableFromInline
struct CombineLatestRule<A, B, C, D, Output>: FanInRule {
  @usableFromInline
  var a: A?
  @usableFromInline
  var b: B?
  @usableFromInline
  var c: C?
  @usableFromInline
  var d: D?
  @usableFromInline
  let sides: Int
  @usableFromInline
  var finished = 0
  @usableFromInline
  let combine: (A, B, C, D) -> Output

  /// A rule for `sides` upstreams; `c` and `d` pre-fill the slots a smaller arity does
  /// not use.
  @inlinable
  init(sides: Int, c: C? = nil, d: D? = nil, combine: @escaping (A, B, C, D) -> Output) {
    self.sides = sides
    self.c = c
    self.d = d
    self.combine = combine
  }

  /// Every upstream is asked for unlimited values; downstream demand paces the tuples.
  @inlinable
  static var forwardsDemand: Bool { false }

  /// The tuple of the latest values, once every upstream has sent one.
  @inlinable
  var latest: Output? {
    guard let a, let b, let c, let d else { return nil }
    return combine(a, b, c, d)
  }

  /// Whether upstream `side` has sent a value.
  @inlinable
  func hasValue(_ side: Int) -> Bool {
    switch side {
    case 0: a != nil
    case 1: b != nil
    case 2: c != nil
    default: d != nil
    }
  }

  /// Finishes downstream once all have finished, or once one finished without a value.
  @inlinable
  mutating func sideFinished(_ side: Int) -> Bool {
    finished += 1
    return finished == sides || !hasValue(side)
  }
}
