extension Publisher where Failure == Never {
  /// The elements produced by the publisher, as an asynchronous sequence.
  ///
  /// Each iteration requests one element; cancelling the iterating task cancels the
  /// subscription.
  ///
  ///     for await value in [1, 2, 3].publisher.values {
  ///         print(value)
  ///     }
  ///     // Prints "1", "2", "3"
  public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
  /// The elements produced by the publisher, as a throwing asynchronous sequence.
  ///
  /// The sequence throws the publisher's failure; cancelling the iterating task cancels
  /// the subscription.
  public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A publisher that exposes its elements as an asynchronous sequence.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  /// The type of element produced by this asynchronous sequence.
  public typealias Element = P.Output

  private let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a
  /// throwing asynchronous sequence.
  ///
  /// - Parameter publisher: An upstream publisher.
  public init(_ publisher: P) { self.publisher = publisher }

  /// Creates the asynchronous iterator that produces elements of this sequence.
  public func makeAsyncIterator() -> Iterator {
    Iterator(hold: AsyncBridgeHold(subscribingTo: publisher))
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  ///
  /// Dropping the iterator (and every copy of it) cancels the subscription, as in
  /// Combine: a loop that breaks out early leaves nothing subscribed.
  public struct Iterator: AsyncIteratorProtocol {
    /// The subscribed bridge; the last copy of the iterator going away cancels it.
    let hold: AsyncBridgeHold<P>

    /// Produces the next element, or `nil` when the publisher finishes or the task is
    /// cancelled.
    public mutating func next() async -> P.Output? {
      await hold.bridge.next()
    }

    /// Produces the next element without ending when the calling task is cancelled.
    mutating func nextIgnoringCancellation() async -> P.Output? {
      switch await hold.bridge.wait().result {
      case .success(let value): value
      }
    }
  }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  /// The type of element produced by this asynchronous sequence.
  public typealias Element = P.Output

  private let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a
  /// throwing asynchronous sequence.
  ///
  /// - Parameter publisher: An upstream publisher.
  public init(_ publisher: P) { self.publisher = publisher }

  /// Creates the asynchronous iterator that produces elements of this sequence.
  public func makeAsyncIterator() -> Iterator {
    Iterator(hold: AsyncBridgeHold(subscribingTo: publisher))
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  ///
  /// Dropping the iterator (and every copy of it) cancels the subscription, as in
  /// Combine: a loop that breaks out early leaves nothing subscribed.
  public struct Iterator: AsyncIteratorProtocol {
    /// The subscribed bridge; the last copy of the iterator going away cancels it.
    let hold: AsyncBridgeHold<P>

    /// Produces the next element, `nil` when the publisher finishes or the task is
    /// cancelled, or throws the publisher's failure.
    public mutating func next() async throws -> P.Output? {
      try await hold.bridge.next()
    }
  }
}
