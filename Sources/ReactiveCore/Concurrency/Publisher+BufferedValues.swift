extension Publisher where Failure == Never, Output: Sendable {
  /// The elements produced by the publisher, as an asynchronous sequence that keeps what
  /// arrives while the loop's body is busy, as `bufferingPolicy` says.
  ///
  /// `values` asks for one element per iteration, as Combine's does: a publisher that
  /// does not wait for demand, such as a ``PassthroughSubject``, drops every value it
  /// sends while the body awaits. This sequence subscribes with unlimited demand when it
  /// is created and buffers instead:
  ///
  ///     for await change in changes.values(bufferingPolicy: .unbounded) {
  ///         try await connection.write(change)   // values sent meanwhile wait here
  ///     }
  ///
  /// With `.bufferingNewest(n)` or `.bufferingOldest(n)`, at most `n` values wait, and
  /// the newest (or oldest) are kept when more arrive. The sequence finishes when the
  /// publisher does; ending the loop (or cancelling its task) cancels the subscription.
  ///
  /// - Parameter bufferingPolicy: How many values may wait for the loop, and which are
  ///   kept beyond that.
  /// - Returns: A sequence of the publisher's values, subscribed from now on.
  public func values(bufferingPolicy: AsyncStream<Output>.Continuation.BufferingPolicy)
    -> AsyncStream<Output>
  {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Output.self, bufferingPolicy: bufferingPolicy)
    let subscription = sink(
      receiveCompletion: { _ in continuation.finish() },
      receiveValue: { continuation.yield($0) })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}

extension Publisher where Output: Sendable {
  /// The elements produced by the publisher, as a throwing asynchronous sequence that
  /// keeps what arrives while the loop's body is busy, as `bufferingPolicy` says (as the
  /// non-throwing `values(bufferingPolicy:)` does). It throws the publisher's failure
  /// once the values before it were iterated.
  ///
  /// - Parameter bufferingPolicy: How many values may wait for the loop, and which are
  ///   kept beyond that.
  /// - Returns: A sequence of the publisher's values, subscribed from now on.
  public func values(
    bufferingPolicy: AsyncThrowingStream<Output, any Error>.Continuation.BufferingPolicy
  ) -> AsyncThrowingStream<Output, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Output.self, throwing: (any Error).self, bufferingPolicy: bufferingPolicy)
    let subscription = sink(
      receiveCompletion: { completion in
        switch completion {
        case .finished: continuation.finish()
        case .failure(let error): continuation.finish(throwing: error)
        }
      },
      receiveValue: { continuation.yield($0) })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}
