extension Future where Failure == Never {
  /// The published value of the future, delivered asynchronously.
  ///
  /// As in Combine, waiting does not end when the calling task is cancelled: a future
  /// always publishes exactly once, and this returns that value.
  ///
  ///     let future = Future<Int, Never> { $0(.success(42)) }
  ///     print(await future.value)
  ///     // Prints "42"
  public var value: Output {
    get async {
      var iterator = AsyncPublisher(self).makeAsyncIterator()
      // A future publishes exactly once before finishing, and nothing here cancels it.
      return await iterator.nextIgnoringCancellation()!
    }
  }
}

extension Future {
  /// The published value of the future or an error, delivered asynchronously.
  ///
  /// - Throws: The future's failure, or `CancellationError` when the calling task is
  ///   cancelled before the future publishes.
  public var value: Output {
    get async throws {
      var iterator = AsyncThrowingPublisher(self).makeAsyncIterator()
      guard let value = try await iterator.next() else { throw CancellationError() }
      return value
    }
  }
}
