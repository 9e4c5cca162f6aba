/// The latest values of a `combineLatest` over any number of upstreams of one type: a
/// value into any upstream costs O(1), plus the array it builds once every upstream has
/// a value. ``CombineLatestEngine`` keeps it under its lock.
@usableFromInline
struct CombineLatestManyRule<Value> {
  /// Each upstream's latest value, until every upstream has one.
  @usableFromInline
  var latest: [Value?]
  /// How many upstreams have not sent a value yet.
  @usableFromInline
  var missing: Int
  /// The latest values once every upstream has one: what goes downstream. Replacing one
  /// element copies the array only if downstream still holds the last one (one bulk
  /// copy, not an element-by-element rebuild, which unspecialised generic code would pay
  /// a metadata lookup for per element).
  @usableFromInline
  var full: [Value] = []

  @inlinable
  init(sides: Int) {
    latest = Array(repeating: nil, count: sides)
    missing = sides
  }

  /// Stores upstream `index`'s value; returns the combination once every upstream has one.
  @inlinable
  mutating func accept(_ value: Value, at index: Int) -> [Value]? {
    if missing == 0 {
      full[index] = value
      return full
    }
    if latest[index] == nil { missing -= 1 }
    latest[index] = value
    guard missing == 0 else { return nil }
    full = latest.map { $0.unsafelyUnwrapped }
    latest = []
    return full
  }
}
