import ReactiveCore

/// Whether `prefix(while:behavior:)` also passes on the first value that fails its
/// predicate, as CombineExt names it.
public enum PrefixWhileBehavior: Sendable {
  /// The first value that fails the predicate goes out too, then the publisher finishes.
  case inclusive
  /// The publisher finishes before the first value that fails the predicate, as Combine's
  /// `prefix(while:)` does.
  case exclusive
}

extension Publisher {
  /// Passes values on while they satisfy a predicate, optionally with the first one that
  /// does not, as CombineExt's `prefix(while:behavior:)` does.
  ///
  ///     [1, 2, 3, 4].publisher.prefix(while: { $0 < 3 }, behavior: .inclusive)  // 1, 2, 3
  ///
  /// - Parameters:
  ///   - predicate: Whether publishing continues after a value.
  ///   - behavior: Whether the first failing value is passed on; `.exclusive` by default.
  /// - Returns: A publisher that finishes at the first value that fails `predicate`.
  public func prefix(
    while predicate: @escaping (Output) -> Bool, behavior: PrefixWhileBehavior = .exclusive
  ) -> AnyPublisher<Output, Failure> {
    switch behavior {
    case .exclusive:
      return prefix(while: predicate).eraseToAnyPublisher()
    case .inclusive:
      // The first value that fails the predicate is followed by an end marker, which
      // finishes the publisher right after that value goes out.
      return flatMap(maxPublishers: .max(1)) { value in
        Publishers.Sequence<[PrefixStep<Output>], Failure>(
          sequence: predicate(value) ? [.value(value)] : [.value(value), .end])
      }
      .prefix(while: \.continues)
      .compactMap(\.value)
      .eraseToAnyPublisher()
    }
  }
}

/// A value of `prefix(while:behavior: .inclusive)`, or the end that follows the last one.
private enum PrefixStep<Value> {
  case value(Value)
  case end

  var continues: Bool {
    if case .end = self { false } else { true }
  }

  var value: Value? {
    if case .value(let value) = self { value } else { nil }
  }
}
