extension Publisher {
  /// Combines elements, in order, from this publisher and 1 other publisher.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func zip<P: Publisher>(_ p: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
    Publishers.Zip(self, p)
  }

  /// Combines elements, in order, from this publisher and 1 other publisher, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func zip<P: Publisher, T>(
    _ p: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
    Publishers.Zip(self, p).map(transform)
  }

  /// Combines elements, in order, from this publisher and 2 other publishers.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func zip<P: Publisher, Q: Publisher>(_ p: P, _ q: Q) -> Publishers.Zip3<Self, P, Q>
  where Failure == P.Failure, Failure == Q.Failure {
    Publishers.Zip3(self, p, q)
  }

  /// Combines elements, in order, from this publisher and 2 other publishers, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func zip<P: Publisher, Q: Publisher, T>(
    _ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
  where Failure == P.Failure, Failure == Q.Failure {
    Publishers.Zip3(self, p, q).map(transform)
  }

  /// Combines elements, in order, from this publisher and 3 other publishers.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ p: P, _ q: Q, _ r: R)
    -> Publishers.Zip4<Self, P, Q, R>
  where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
    Publishers.Zip4(self, p, q, r)
  }

  /// Combines elements, in order, from this publisher and 3 other publishers, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
  where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
    Publishers.Zip4(self, p, q, r).map(transform)
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to 2 publishers.
  public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = (A.Output, B.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B

    /// Creates the publisher from 2 upstreams.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      let inner = ZipSubscription(
        sides: 2, downstream: subscriber,
        queues: ZipQueues<A.Output, B.Output, Void, Void, Output>(c: (), d: ()) { a, b, _, _ in
          (a, b)
        })
      subscriber.receive(subscription: inner)
      inner.attach(a, as: 0) { $0.a.append($1) }
      inner.attach(b, as: 1) { $0.b.append($1) }
    }
  }

  /// A publisher created by applying the zip function to 3 publishers.
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = (A.Output, B.Output, C.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B
    /// Upstream publisher c.
    public let c: C

    /// Creates the publisher from 3 upstreams.
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      let inner = ZipSubscription(
        sides: 3, downstream: subscriber,
        queues: ZipQueues<A.Output, B.Output, C.Output, Void, Output>(d: ()) { a, b, c, _ in
          (a, b, c)
        })
      subscriber.receive(subscription: inner)
      inner.attach(a, as: 0) { $0.a.append($1) }
      inner.attach(b, as: 1) { $0.b.append($1) }
      inner.attach(c, as: 2) { $0.c.append($1) }
    }
  }

  /// A publisher created by applying the zip function to 4 publishers.
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B
    /// Upstream publisher c.
    public let c: C
    /// Upstream publisher d.
    public let d: D

    /// Creates the publisher from 4 upstreams.
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      let inner = ZipSubscription(
        sides: 4, downstream: subscriber,
        queues: ZipQueues<A.Output, B.Output, C.Output, D.Output, Output> { a, b, c, d in
          (a, b, c, d)
        })
      subscriber.receive(subscription: inner)
      inner.attach(a, as: 0) { $0.a.append($1) }
      inner.attach(b, as: 1) { $0.b.append($1) }
      inner.attach(c, as: 2) { $0.c.append($1) }
      inner.attach(d, as: 3) { $0.d.append($1) }
    }
  }
}

// Combine declares each zip Equatable when all of its upstreams are.
extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
