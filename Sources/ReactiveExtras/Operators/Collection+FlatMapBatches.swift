import ReactiveCore

extension Collection where Element: Publisher {
  /// Subscribes to the publishers `size` at a time and sends each batch's values zipped in
  /// order, starting the next batch only once the one before has finished; a failure goes
  /// downstream at once. As CombineExt's `flatMapBatches(of:)`.
  ///
  ///     requests.flatMapBatches(of: 4)  // [r0...r3 results], then [r4...r7 results], ...
  ///
  /// - Parameter size: How many publishers run at once; must be positive.
  /// - Returns: A publisher of one array per zipped step of each batch.
  public func flatMapBatches(of size: Int) -> AnyPublisher<[Element.Output], Element.Failure> {
    precondition(size > 0, "Batch sizes must be positive.")
    let publishers = Array(self)
    let starts = Array(stride(from: 0, to: publishers.count, by: size))
    return starts.publisher
      .setFailureType(to: Element.Failure.self)
      .flatMap(maxPublishers: .max(1)) { start in
        publishers[start..<Swift.min(start + size, publishers.count)].zip()
      }
      .eraseToAnyPublisher()
  }
}
