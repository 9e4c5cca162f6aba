extension Publisher where Output: Equatable {
  /// Publishes a Boolean value upon receiving an element equal to the argument.
  ///
  ///     let cancellable = (1...5).publisher.contains(3).sink { print($0) }
  ///     // Prints "true"
  ///
  /// - Parameter output: An element to match against.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream
  ///   publisher emits a matching value, and `false` if it finishes without one.
  public func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

extension Publisher {
  /// Publishes a Boolean value upon receiving an element that satisfies the predicate
  /// closure.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns
  ///   a Boolean value that indicates whether the element satisfies the closure's
  ///   comparison logic.
  /// - Returns: A publisher that emits `true` when an element satisfies the predicate.
  public func contains(where predicate: @escaping (Output) -> Bool)
    -> Publishers.ContainsWhere<Self>
  {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }

  /// Publishes a Boolean value upon receiving an element that satisfies the throwing
  /// predicate closure.
  ///
  /// - Parameter predicate: A throwing closure that tests an element.
  /// - Returns: A publisher that emits `true` when an element satisfies the predicate; it
  ///   fails if the closure throws.
  public func tryContains(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryContainsWhere<Self>
  {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that emits a Boolean value when it receives a specific element from its
  /// upstream publisher.
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    /// The kind of values published by this publisher.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The element to scan for in the upstream publisher.
    public let output: Upstream.Output

    /// Creates a publisher of whether `output` appears upstream.
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber; a match cancels upstream.
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, S.Input == Bool {
      let wanted = output
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Upstream.Failure, S>.verdict(
            "Contains", downstream: subscriber, whenAllPass: false
          ) {
            $0 == wanted
          })
    }
  }

  /// A publisher that emits a Boolean value upon receiving an element that satisfies the
  /// predicate closure.
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that determines whether the publisher should consider an element as a
    /// match.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher of whether an element satisfies `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a match cancels upstream.
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, S.Input == Bool {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Upstream.Failure, S>.verdict(
            "ContainsWhere", downstream: subscriber, whenAllPass: false, test: predicate))
    }
  }

  /// A publisher that emits a Boolean value upon receiving an element that satisfies the
  /// throwing predicate closure.
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that determines whether this publisher should emit a
    /// Boolean true element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher of whether an element satisfies a throwing `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a match or a thrown error cancels upstream.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Failure == any Error, S.Input == Bool {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Upstream.Failure, S>.verdict(
            "TryContainsWhere", downstream: subscriber, whenAllPass: false, test: predicate))
    }
  }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}
