/// The latest values of `combineLatest`'s upstreams (up to four), generic over the largest
/// arity: each upstream's latest value in its own type, and the function that builds the
/// downstream's tuple once every upstream has one. A smaller arity fills the unused slots
/// with `Void` values from the start. ``CombineLatestEngine`` keeps it under its lock.
@usableFromInline
struct CombineLatestRule<A, B, C, D, Output> {
  @usableFromInline
  var a: A?
  @usableFromInline
  var b: B?
  @usableFromInline
  var c: C?
  @usableFromInline
  var d: D?
  @usableFromInline
  let combine: (A, B, C, D) -> Output

  /// A rule for `sides` upstreams; `c` and `d` fill the slots a smaller arity does not use.
  @inlinable
  init(sides: Int, c: C? = nil, d: D? = nil, combine: @escaping (A, B, C, D) -> Output) {
    self.c = c
    self.d = d
    self.combine = combine
  }

  /// The combination of the latest values, once every upstream has sent one.
  @inlinable
  var latest: Output? {
    guard let a, let b, let c, let d else { return nil }
    return combine(a, b, c, d)
  }
}
