extension Publisher {
  /// Publishes the value of a key path.
  ///
  ///     let cancellable = ["a", "bc"].publisher.map(\.count).sink { print($0) }
  ///     // Prints "1", "2"
  ///
  /// - Parameter keyPath: The key path of a property on `Output`.
  /// - Returns: A publisher that publishes the value of the key path.
  @inlinable
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }

  /// Publishes the values of two key paths as a tuple.
  ///
  /// - Parameters:
  ///   - keyPath0: The key path of a property on `Output`.
  ///   - keyPath1: The key path of another property on `Output`.
  /// - Returns: A publisher that publishes the values of two key paths as a tuple.
  @inlinable
  public func map<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
  ) -> Publishers.MapKeyPath2<Self, T0, T1> {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }

  /// Publishes the values of three key paths as a tuple.
  ///
  /// - Parameters:
  ///   - keyPath0: The key path of a property on `Output`.
  ///   - keyPath1: The key path of another property on `Output`.
  ///   - keyPath2: The key path of a third property on `Output`.
  /// - Returns: A publisher that publishes the values of three key paths as a tuple.
  @inlinable
  public func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>,
    _ keyPath2: KeyPath<Output, T2>
  ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
    Publishers.MapKeyPath3(
      upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}

extension Publishers {
  /// A publisher that publishes the value of a key path.
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The key path of a property to publish.
    public let keyPath: KeyPath<Upstream.Output, Output>

    /// Creates a publisher of the values at `keyPath`.
    @inlinable
    public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
      self.upstream = upstream
      self.keyPath = keyPath
    }

    /// Attaches the subscriber through a forwarding subscriber that reads the key path.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let keyPath = keyPath
      upstream.receive(
        subscriber:
          ClosureForwarder<Upstream.Output, Failure, S>(
            "ValueForKey", downstream: subscriber, reflectedChildren: { [("keyPath", keyPath)] }
          ) {
            $1.receive($0[keyPath: keyPath])
          })
    }
  }

  /// A publisher that publishes the values of two key paths as a tuple.
  public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = (Output0, Output1)
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    /// Creates a publisher of the values at two key paths.
    @inlinable
    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
    }

    /// Attaches the subscriber through a forwarding subscriber that reads the key paths.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let (keyPath0, keyPath1) = (keyPath0, keyPath1)
      upstream.receive(
        subscriber:
          ClosureForwarder<Upstream.Output, Failure, S>(
            "ValueForKeys", downstream: subscriber,
            reflectedChildren: { [("keyPath0", keyPath0), ("keyPath1", keyPath1)] }
          ) {
            $1.receive(($0[keyPath: keyPath0], $0[keyPath: keyPath1]))
          })
    }
  }

  /// A publisher that publishes the values of three key paths as a tuple.
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = (Output0, Output1, Output2)
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>
    /// The key path of a third property to publish.
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    /// Creates a publisher of the values at three key paths.
    @inlinable
    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
      self.keyPath2 = keyPath2
    }

    /// Attaches the subscriber through a forwarding subscriber that reads the key paths.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let (keyPath0, keyPath1, keyPath2) = (keyPath0, keyPath1, keyPath2)
      upstream.receive(
        subscriber:
          ClosureForwarder<Upstream.Output, Failure, S>(
            "ValueForKeys", downstream: subscriber,
            reflectedChildren: {
              [("keyPath0", keyPath0), ("keyPath1", keyPath1), ("keyPath2", keyPath2)]
            }
          ) {
            $1.receive(($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2]))
          })
    }
  }
}
