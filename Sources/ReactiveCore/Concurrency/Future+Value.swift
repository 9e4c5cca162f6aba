extension Future where Failure == Never {
  /// The published value of the future, delivered asynchronously.
  ///
  ///     let future = Future<Int, Never> { $0(.success(42)) }
  ///     print(await future.value)
  ///     // Prints "42"
  public var value: Output {
    get async {
      var iterator = AsyncPublisher(self).makeAsyncIterator()
      // A future always publishes exactly once before finishing.
      return await iterator.next()!
    }
  }
}

extension Future {
  /// The published value of the future or an error, delivered asynchronously.
  ///
  /// - Throws: The future's failure.
  public var value: Output {
    get async throws {
      var iterator = AsyncThrowingPublisher(self).makeAsyncIterator()
      guard let value = try await iterator.next() else { throw CancellationError() }
      return value
    }
  }
}
