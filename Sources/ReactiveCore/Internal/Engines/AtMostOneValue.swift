/// What the counting operators leave of a publisher of at most one value (`Just`,
/// `Optional.Publisher`), computed at once as Combine's specializations do.
///
/// Each answer is written once, with Combine's trap on a negative argument, so that the
/// two publishers' overloads cannot drift apart.
enum AtMostOneValue {
  /// The value that `dropFirst(count)` leaves: none once `count` is positive.
  ///
  /// - Precondition: `count >= 0`.
  static func droppingFirst<Value>(_ count: Int, of value: Value?) -> Value? {
    precondition(count >= 0, "dropFirst(_:) needs a count of zero or more")
    return count > 0 ? nil : value
  }

  /// The value that `prefix(maxLength)` keeps: the value while `maxLength` is positive.
  ///
  /// - Precondition: `maxLength >= 0`.
  static func prefix<Value>(_ maxLength: Int, of value: Value?) -> Value? {
    precondition(maxLength >= 0, "prefix(_:) needs a length of zero or more")
    return maxLength > 0 ? value : nil
  }

  /// The value that `output(at: index)` publishes: the value at index zero only.
  ///
  /// - Precondition: `index >= 0`.
  static func output<Value>(at index: Int, of value: Value?) -> Value? {
    precondition(index >= 0, "the index must be zero or more")
    return index == 0 ? value : nil
  }
}
