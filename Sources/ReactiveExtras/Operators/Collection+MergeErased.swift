import ReactiveCore

extension Collection where Element: Publisher {
  /// Merges the values of every publisher in the collection into one type-erased stream:
  /// CombineExt's `merge()`, which returns an `AnyPublisher`; chosen where one is expected,
  /// while elsewhere `merge()` gives a `Publishers.MergeMany`.
  ///
  ///     let all: AnyPublisher<Int, Never> = [requestA, requestB].merge()
  ///
  /// - Returns: A publisher that finishes when every publisher has finished, and fails
  ///   when any fails.
  @_disfavoredOverload
  public func merge() -> AnyPublisher<Element.Output, Element.Failure> {
    Publishers.MergeMany(self).eraseToAnyPublisher()
  }
}
