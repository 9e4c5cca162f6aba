extension Publisher where Output: Equatable {
  /// Publishes only elements that don't match the previous element.
  ///
  ///     let cancellable = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }
  ///     // Prints "1", "2", "1"
  ///
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    removeDuplicates(by: ==)
  }
}

extension Publisher {
  /// Publishes only elements that don't match the previous element, as evaluated by a
  /// provided closure.
  ///
  /// - Parameter predicate: A closure to evaluate whether two elements are equivalent,
  ///   for purposes of filtering. Return `true` from this closure to indicate that the
  ///   second element is a duplicate of the first.
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public func removeDuplicates(
    by predicate: @escaping (Output, Output) -> Bool
  ) -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }

  /// Publishes only elements that don't match the previous element, as evaluated by a
  /// provided error-throwing closure.
  ///
  /// - Parameter predicate: A closure to evaluate whether two elements are equivalent;
  ///   it may throw, which fails the publisher.
  /// - Returns: A publisher that consumes duplicate elements.
  public func tryRemoveDuplicates(
    by predicate: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryRemoveDuplicates<Self> {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes only elements that don't match the previous element.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The predicate closure used to evaluate whether two elements are duplicates.
    public let predicate: (Output, Output) -> Bool

    /// Creates a publisher that drops an element equivalent to the last one published.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; each subscription remembers its own last element.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let previous = SerialCell<Output?>(nil)
      let isDuplicate = predicate
      upstream.receive(
        subscriber: FilteringSubscription<Output, Failure, S>.subscriber(
          "RemoveDuplicates", downstream: subscriber,
          extraMirrorChildren: { [("last", previous.value as Any)] }
        ) { input in
          // As in Combine, each value is compared with the one before it, published or not.
          guard let last = previous.exchange(input) else { return .emit(input) }
          return isDuplicate(last, input) ? .drop : .emit(input)
        })
    }
  }

  /// A publisher that publishes only elements that don't match the previous element, as
  /// evaluated by a provided error-throwing closure.
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// An error-throwing closure to evaluate whether two elements are equivalent.
    public let predicate: (Output, Output) throws -> Bool

    /// Creates a publisher that drops duplicates judged by a throwing closure.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let previous = SerialCell<Output?>(nil)
      let isDuplicate = predicate
      upstream.receive(
        subscriber: FilteringSubscription<Output, Upstream.Failure, S>.subscriber(
          "TryRemoveDuplicates", downstream: subscriber,
          extraMirrorChildren: { [("last", previous.value as Any)] }
        ) { input in
          guard let last = previous.exchange(input) else { return .emit(input) }
          return .trying { try isDuplicate(last, input) ? .drop : .emit(input) }
        })
    }
  }
}
