/// A value that one subscription's value path keeps between values: `scan`'s running
/// result, the previous value of `removeDuplicates(by:)`.
///
/// A `var` captured by the operator's escaping closure would do the same, but Swift
/// checks each access to a captured `var` at run time (about 75 instructions for a read
/// and a write, more than the rest of `scan`'s value path); this class turns the check
/// off, which is sound because upstream sends values one at a time (the `Subscriber`
/// contract), so the value path never overlaps itself. The mirror reads it for display.
@usableFromInline
final class SerialCell<Value>: @unchecked Sendable {
  /// The value; touched only by the serial value path (and read by the mirror).
  @usableFromInline
  @exclusivity(unchecked)
  var value: Value

  /// Creates the cell holding `value`.
  @inlinable
  init(_ value: Value) { self.value = value }

  /// Stores `next` and returns the value it replaces.
  @inlinable
  func exchange(_ next: Value) -> Value {
    defer { value = next }
    return value
  }
}
