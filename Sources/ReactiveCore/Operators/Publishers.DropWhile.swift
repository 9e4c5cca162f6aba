extension Publisher {
  /// Omits elements from the upstream publisher until a given closure returns false,
  /// before republishing all remaining elements.
  ///
  ///     let cancellable = [1, 2, 5, 1].publisher.drop { $0 < 3 }.sink { print($0) }
  ///     // Prints "5", "1"
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value indicating whether to drop the element from the publisher's output.
  /// - Returns: A publisher that skips over elements until the provided closure returns
  ///   `false`.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Omits elements from the upstream publisher until an error-throwing closure returns
  /// false, before republishing all remaining elements.
  ///
  /// - Parameter predicate: A closure that returns whether to drop the element; it may
  ///   throw, which fails the publisher.
  /// - Returns: A publisher that skips elements until the closure returns `false`.
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryDropWhile<Self>
  {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that omits elements from an upstream publisher until a given closure
  /// returns false.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that indicates whether to drop the element.
    public let predicate: (Output) -> Bool

    /// Creates a publisher that drops elements while `predicate` holds.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; each dropped element is replaced by a request for one more.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      var dropping = true
      let predicate = predicate
      upstream.receive(
        subscriber:
          Relay<Output, Failure, S>("DropWhile", downstream: subscriber) { input, downstream in
            if dropping, predicate(input) { return .max(1) }
            dropping = false
            return downstream.receive(input)
          })
    }
  }

  /// A publisher that omits elements from an upstream publisher until a given
  /// error-throwing closure returns false.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that indicates whether to drop the element.
    public let predicate: (Output) throws -> Bool

    /// Creates a publisher that drops elements while a throwing `predicate` holds.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      var dropping = true
      let predicate = predicate
      upstream.receive(
        subscriber:
          StepOperator<Output, Upstream.Failure, S>(
            throwing: "TryDropWhile", downstream: subscriber
          ) {
            input in
            .trying {
              if dropping, try predicate(input) { return .drop }
              dropping = false
              return .emit(input)
            }
          })
    }
  }
}
