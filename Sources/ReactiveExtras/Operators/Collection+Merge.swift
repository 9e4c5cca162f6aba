import ReactiveCore

extension Collection where Element: Publisher {
  /// Merges the values of every publisher in the collection into one stream.
  ///
  ///     let all = [requestA, requestB, requestC].merge()
  ///
  /// - Returns: A publisher that finishes when every publisher has finished, and fails
  ///   when any fails.
  public func merge() -> Publishers.MergeMany<Element> { Publishers.MergeMany(self) }
}
