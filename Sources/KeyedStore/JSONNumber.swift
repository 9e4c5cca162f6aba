/// JSON numbers as `JSONDecoder` reads them into a ``StoredJSON``, and as `JSONEncoder`
/// writes them: the one place that decides whether a number is an integer, so that a
/// value encoded in memory equals the same value read back from the file.
///
///     JSONNumber.value("1.0")    // .integer(1)
///     JSONNumber.value("1e+19")  // .unsigned(10000000000000000000)
///     JSONNumber.value("0.1")    // .double(0.1)
///     JSONNumber.value("1e400")  // nil: no Swift number type holds it
///
/// `StoredJSON` used to be decoded by trying `Int64`, then `UInt64`, then `Double`;
/// these rules are what `JSONDecoder` (swift-foundation) does for each: an integer
/// written plainly is taken as it is; any other number is read as a `Double`, which must
/// be whole and, from 2⁵³ up, be the exact value of the text.
enum JSONNumber {
  /// 2⁵³: below it, every whole `Double` is exact, and `JSONDecoder` takes an integer from
  /// the `Double` it read; from it up, only from the text's exact value.
  private static let exactDoubleLimit = 9_007_199_254_740_992.0

  /// The value `JSONDecoder` reads for a JSON number.
  ///
  /// - Parameter text: A number in JSON's syntax.
  /// - Returns: The number, or `nil` when it is too large for a `Double`.
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  static func value(_ text: String) -> StoredJSON? {
    let isPlain = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
    if isPlain, let value = Int64(text) { return .integer(value) }
    let double = Double(text)
    if let double, let whole = Int64(exactly: double) {
      if double.magnitude < exactDoubleLimit { return .integer(whole) }
      if let (isNegative, magnitude) = exactInteger(text), magnitude <= UInt64(Int64.max) {
        return .integer(isNegative ? -Int64(magnitude) : Int64(magnitude))
      }
    }
    if isPlain, let value = UInt64(text) { return .unsigned(value) }
    if let double, let whole = UInt64(exactly: double) {
      if double < exactDoubleLimit { return .unsigned(whole) }
      if let (isNegative, magnitude) = exactInteger(text), !isNegative {
        return .unsigned(magnitude)
      }
    }
    guard let double, double.isFinite else { return nil }
    return .double(double)
  }

  /// The value `JSONDecoder` reads back for a `Double` that `JSONEncoder` wrote.
  ///
  /// - Returns: The number, or `nil` for a NaN or an infinity, which JSON cannot hold.
  static func value(_ double: Double) -> StoredJSON? {
    guard double.isFinite else { return nil }
    // The common cases without text: a whole number below 2⁵³ is written as an integer,
    // and one with a fraction is read back exactly (its description round-trips).
    if double.rounded(.towardZero) != double { return .double(double) }
    if double.magnitude < exactDoubleLimit { return .integer(Int64(double)) }
    return value(text(double))
  }

  /// The value `JSONDecoder` reads back for a `Float` that `JSONEncoder` wrote.
  ///
  /// - Returns: The number, or `nil` for a NaN or an infinity.
  static func value(_ float: Float) -> StoredJSON? {
    guard float.isFinite else { return nil }
    return value(text(float))
  }

  /// The text `JSONEncoder` writes for a finite number: its description, without a
  /// trailing `.0`.
  static func text(_ number: some BinaryFloatingPoint & CustomStringConvertible) -> String {
    var text = number.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }

  /// The exact value of a JSON number when it is a whole number that fits in a `UInt64`:
  /// what `JSONDecoder` takes, reading the text as a `Decimal`, from 2⁵³ up.
  ///
  /// - Returns: The sign and magnitude, or `nil` when the number has a fraction or is
  ///   too large.
  private static func exactInteger(_ text: String) -> (isNegative: Bool, magnitude: UInt64)? {
    var digits: [UInt8] = []
    var fractionDigits = 0
    var exponent = 0
    var isNegative = false
    var part = 0  // 0: integer part, 1: fraction, 2: exponent
    var exponentSign = 1
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-") where part == 0: isNegative = true
      case UInt8(ascii: "-"): exponentSign = -1
      case UInt8(ascii: "+"): break
      case UInt8(ascii: "."): part = 1
      case UInt8(ascii: "e"), UInt8(ascii: "E"): part = 2
      case _ where part == 2:
        // An exponent this large makes a value of zero or an overflow either way.
        exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
      default:
        if part == 1 { fractionDigits += 1 }
        if digits.isEmpty && byte == UInt8(ascii: "0") { continue }
        digits.append(byte - UInt8(ascii: "0"))
      }
    }
    var scale = exponentSign * exponent - fractionDigits
    if digits.isEmpty { return (isNegative, 0) }
    // Trailing zeros of the digits that the scale removes must be zeros.
    while scale < 0 {
      guard digits.last == 0 else { return nil }
      digits.removeLast()
      scale += 1
    }
    guard digits.count + scale <= 20 else { return nil }
    var magnitude: UInt64 = 0
    for digit in digits + repeatElement(0, count: scale) {
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow, !carry else { return nil }
      magnitude = sum
    }
    return (isNegative, magnitude)
  }
}
