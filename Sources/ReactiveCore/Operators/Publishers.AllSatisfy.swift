extension Publisher {
  /// Publishes a single Boolean value that indicates whether all received elements pass
  /// a given predicate.
  ///
  ///     let cancellable = [2, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) }
  ///     // Prints "true"
  ///
  /// - Parameter predicate: A closure that evaluates each received element.
  /// - Returns: A publisher that publishes a Boolean value that indicates whether all
  ///   received elements pass a given predicate.
  public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }

  /// Publishes a single Boolean value that indicates whether all received elements pass
  /// a given error-throwing predicate.
  ///
  /// - Parameter predicate: A throwing closure that evaluates each received element.
  /// - Returns: A publisher of whether all elements pass; it fails if the closure throws.
  public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryAllSatisfy<Self>
  {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes a single Boolean value that indicates whether all
  /// received elements pass a given predicate.
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// A closure that evaluates each received element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher of whether every element satisfies `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; the first failing element cancels upstream.
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, S.Input == Bool {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Upstream.Failure, S>.verdict(
            "AllSatisfy", downstream: subscriber, whenAllPass: true, test: predicate))
    }
  }

  /// A publisher that publishes a single Boolean value that indicates whether all
  /// received elements pass a given error-throwing predicate.
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// An error-throwing closure that evaluates each received element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher of whether every element satisfies a throwing `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber; a failing element or a thrown error cancels upstream.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Failure == any Error, S.Input == Bool {
      upstream.receive(
        subscriber:
          ReducingSubscription<Upstream.Output, Upstream.Failure, S>.verdict(
            "TryAllSatisfy", downstream: subscriber, whenAllPass: true, test: predicate))
    }
  }
}
