extension Publisher {
  /// Republishes elements while a predicate closure indicates publishing should continue.
  ///
  ///     let cancellable = [1, 2, 5, 1].publisher.prefix { $0 < 3 }.sink { print($0) }
  ///     // Prints "1", "2"
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns
  ///   a Boolean value that indicates whether publishing should continue.
  /// - Returns: A publisher that passes through elements until the predicate indicates
  ///   publishing should finish.
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Republishes elements while an error-throwing predicate closure indicates publishing
  /// should continue.
  ///
  /// - Parameter predicate: A closure that returns whether publishing should continue; it
  ///   may throw, which fails the publisher.
  /// - Returns: A publisher that passes through elements until the predicate says stop.
  public func tryPrefix(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryPrefixWhile<Self>
  {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that republishes elements while a predicate closure indicates publishing
  /// should continue.
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that determines whether publishing should continue.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes elements while `predicate` holds.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; the first failing element cancels upstream and finishes.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let predicate = predicate
      upstream.receive(
        subscriber:
          FilteringSubscription<Output, Failure, S>.subscriber(
            "PrefixWhile", downstream: subscriber
          ) {
            predicate($0) ? .emit($0) : .finish
          })
    }
  }

  /// A publisher that republishes elements while an error-throwing predicate closure
  /// indicates publishing should continue.
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The error-throwing closure that determines whether publishing should continue.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes elements while a throwing `predicate` holds.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a thrown error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let predicate = predicate
      upstream.receive(
        subscriber:
          FilteringSubscription<Output, Upstream.Failure, S>.subscriber(
            "TryPrefixWhile", downstream: subscriber
          ) {
            input in .trying { try predicate(input) ? .emit(input) : .finish }
          })
    }
  }
}
