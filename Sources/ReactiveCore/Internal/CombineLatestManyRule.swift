/// The latest values of a `combineLatest` over any number of upstreams of one type: a
/// value into any upstream costs O(1), plus the array it builds once every upstream has
/// a value. ``CombineLatestEngine`` keeps it under its lock.
@usableFromInline
struct CombineLatestManyRule<Value> {
  @usableFromInline
  var latest: [Value?]
  /// How many upstreams have not sent a value yet.
  @usableFromInline
  var missing: Int

  @inlinable
  init(sides: Int) {
    latest = Array(repeating: nil, count: sides)
    missing = sides
  }

  /// Stores upstream `index`'s value; returns the combination once every upstream has one.
  @inlinable
  mutating func accept(_ value: Value, at index: Int) -> [Value]? {
    if latest[index] == nil { missing -= 1 }
    latest[index] = value
    guard missing == 0 else { return nil }
    return latest.map { $0.unsafelyUnwrapped }
  }
}
