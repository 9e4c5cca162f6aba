extension Publisher {
  /// Subscribes to this publisher and 1 other publisher.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func combineLatest<P: Publisher>(_ p: P) -> Publishers.CombineLatest<Self, P>
  where Failure == P.Failure {
    Publishers.CombineLatest(self, p)
  }

  /// Subscribes to this publisher and 1 other publisher, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func combineLatest<P: Publisher, T>(
    _ p: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
    Publishers.CombineLatest(self, p).map(transform)
  }

  /// Subscribes to this publisher and 2 other publishers.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func combineLatest<P: Publisher, Q: Publisher>(_ p: P, _ q: Q)
    -> Publishers.CombineLatest3<Self, P, Q> where Failure == P.Failure, Failure == Q.Failure
  {
    Publishers.CombineLatest3(self, p, q)
  }

  /// Subscribes to this publisher and 2 other publishers, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func combineLatest<P: Publisher, Q: Publisher, T>(
    _ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
  where Failure == P.Failure, Failure == Q.Failure {
    Publishers.CombineLatest3(self, p, q).map(transform)
  }

  /// Subscribes to this publisher and 3 other publishers.
  ///
  /// - Returns: A publisher of tuples of the upstream values.
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(_ p: P, _ q: Q, _ r: R)
    -> Publishers.CombineLatest4<Self, P, Q, R>
  where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
    Publishers.CombineLatest4(self, p, q, r)
  }

  /// Subscribes to this publisher and 3 other publishers, transforming each tuple with a closure.
  ///
  /// - Returns: A publisher of the transformed tuples.
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
  where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
    Publishers.CombineLatest4(self, p, q, r).map(transform)
  }
}

extension Publishers {
  /// A publisher that receives and combines the latest elements from 2 publishers.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      typealias Rule = CombineLatestRule<A.Output, B.Output, Void, Void, Output>
      let rule = Rule(sides: 2, c: (), d: ()) { a, b, _, _ in (a, b) }
      CombineLatestEngine<S, Rule>(sides: 2, rule: rule, downstream: subscriber)
        .start(subscriber) {
          $0.attach(a, as: 0) {
            $0.a = $1
            return $0.latest
          }
          $0.attach(b, as: 1) {
            $0.b = $1
            return $0.latest
          }
        }
    }
  }

  /// A publisher that receives and combines the latest elements from 3 publishers.
  public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      typealias Rule = CombineLatestRule<A.Output, B.Output, C.Output, Void, Output>
      let rule = Rule(sides: 3, d: ()) { a, b, c, _ in (a, b, c) }
      CombineLatestEngine<S, Rule>(sides: 3, rule: rule, downstream: subscriber)
        .start(subscriber) {
          $0.attach(a, as: 0) {
            $0.a = $1
            return $0.latest
          }
          $0.attach(b, as: 1) {
            $0.b = $1
            return $0.latest
          }
          $0.attach(c, as: 2) {
            $0.c = $1
            return $0.latest
          }
        }
    }
  }

  /// A publisher that receives and combines the latest elements from 4 publishers.
  public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, S.Input == Output {
      typealias Rule = CombineLatestRule<A.Output, B.Output, C.Output, D.Output, Output>
      let rule = Rule(sides: 4) { a, b, c, d in (a, b, c, d) }
      CombineLatestEngine<S, Rule>(sides: 4, rule: rule, downstream: subscriber)
        .start(subscriber) {
          $0.attach(a, as: 0) {
            $0.a = $1
            return $0.latest
          }
          $0.attach(b, as: 1) {
            $0.b = $1
            return $0.latest
          }
          $0.attach(c, as: 2) {
            $0.c = $1
            return $0.latest
          }
          $0.attach(d, as: 3) {
            $0.d = $1
            return $0.latest
          }
        }
    }
  }
}

// Combine declares each combineLatest Equatable when all of its upstreams are.
extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
