extension Publisher {
  /// Combines elements from this publisher with those from another publisher of the same
  /// type, delivering an interleaved sequence of elements.
  ///
  ///     let cancellable = evens.merge(with: odds).sink { print($0) }
  ///
  /// The merged publisher finishes when every upstream finishes, and fails as soon as one
  /// fails (cancelling the others).
  ///
  /// - Parameter other: Another publisher.
  /// - Returns: A publisher that emits an event when either upstream publisher emits an
  ///   event.
  public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
  where Failure == P.Failure, Output == P.Output {
    Publishers.Merge(self, other)
  }

  /// Combines elements from this publisher with those from 2 other publishers of the
  /// same type, delivering an interleaved sequence of elements.
  ///
  /// - Returns: A publisher that emits an event when any upstream publisher emits one.
  public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
  where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output {
    Publishers.Merge3(self, b, c)
  }

  /// Combines elements from this publisher with those from 3 other publishers of the
  /// same type, delivering an interleaved sequence of elements.
  ///
  /// - Returns: A publisher that emits an event when any upstream publisher emits one.
  public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D)
    -> Publishers.Merge4<Self, B, C, D>
  where
    Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output,
    Failure == D.Failure, Output == D.Output
  {
    Publishers.Merge4(self, b, c, d)
  }

  /// Combines elements from this publisher with those from 4 other publishers of the
  /// same type, delivering an interleaved sequence of elements.
  ///
  /// - Returns: A publisher that emits an event when any upstream publisher emits one.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Publishers.Merge5<Self, B, C, D, E>
  where
    Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output,
    Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output
  {
    Publishers.Merge5(self, b, c, d, e)
  }

  /// Combines elements from this publisher with those from 5 other publishers of the
  /// same type, delivering an interleaved sequence of elements.
  ///
  /// - Returns: A publisher that emits an event when any upstream publisher emits one.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Publishers.Merge6<Self, B, C, D, E, F>
  where
    Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output,
    Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output,
    Failure == F.Failure, Output == F.Output
  {
    Publishers.Merge6(self, b, c, d, e, f)
  }

  /// Combines elements from this publisher with those from 6 other publishers of the
  /// same type, delivering an interleaved sequence of elements.
  ///
  /// - Returns: A publisher that emits an event when any upstream publisher emits one.
  public func merge<
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G>
  where
    Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output,
    Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output,
    Failure == F.Failure, Output == F.Output, Failure == G.Failure, Output == G.Output
  {
    Publishers.Merge7(self, b, c, d, e, f, g)
  }

  /// Combines elements from this publisher with those from 7 other publishers of the
  /// same type, delivering an interleaved sequence of elements.
  ///
  /// - Returns: A publisher that emits an event when any upstream publisher emits one.
  public func merge<
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
  >(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H)
    -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
  where
    Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output,
    Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output,
    Failure == F.Failure, Output == F.Output, Failure == G.Failure, Output == G.Output,
    Failure == H.Failure, Output == H.Output
  {
    Publishers.Merge8(self, b, c, d, e, f, g, h)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to 2 upstream publishers.
  public struct Merge<A: Publisher, B: Publisher>: Publisher
  where A.Failure == B.Failure, A.Output == B.Output {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B

    /// Creates a publisher created by applying the merge function to 2 upstream
    /// publishers.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 2)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
        }
    }

    /// Merges one more publisher into this one.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where A.Failure == P.Failure, A.Output == P.Output {
      Publishers.Merge3(a, b, other)
    }
  }

  /// A publisher created by applying the merge function to 3 upstream publishers.
  public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream publisher a.
    public let a: A
    /// Upstream publisher b.
    public let b: B
    /// Upstream publisher c.
    public let c: C

    /// Creates a publisher created by applying the merge function to 3 upstream
    /// publishers.
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 3)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
          $0.attach(c, as: 2)
        }
    }

    /// Merges one more publisher into this one.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where A.Failure == P.Failure, A.Output == P.Output {
      Publishers.Merge4(a, b, c, other)
    }
  }

  /// A publisher created by applying the merge function to 4 upstream publishers.
  public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
    A.Failure == D.Failure, A.Output == D.Output
  {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
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

    /// Creates a publisher created by applying the merge function to 4 upstream
    /// publishers.
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 4)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
          $0.attach(c, as: 2)
          $0.attach(d, as: 3)
        }
    }

    /// Merges one more publisher into this one.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
    where A.Failure == P.Failure, A.Output == P.Output {
      Publishers.Merge5(a, b, c, d, other)
    }
  }

  /// A publisher created by applying the merge function to 5 upstream publishers.
  public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>:
    Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
    A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output
  {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
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
    /// Upstream publisher e.
    public let e: E

    /// Creates a publisher created by applying the merge function to 5 upstream
    /// publishers.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 5)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
          $0.attach(c, as: 2)
          $0.attach(d, as: 3)
          $0.attach(e, as: 4)
        }
    }

    /// Merges one more publisher into this one.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where A.Failure == P.Failure, A.Output == P.Output {
      Publishers.Merge6(a, b, c, d, e, other)
    }
  }

  /// A publisher created by applying the merge function to 6 upstream publishers.
  public struct Merge6<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher
  >: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
    A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output,
    A.Failure == F.Failure, A.Output == F.Output
  {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
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
    /// Upstream publisher e.
    public let e: E
    /// Upstream publisher f.
    public let f: F

    /// Creates a publisher created by applying the merge function to 6 upstream
    /// publishers.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 6)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
          $0.attach(c, as: 2)
          $0.attach(d, as: 3)
          $0.attach(e, as: 4)
          $0.attach(f, as: 5)
        }
    }

    /// Merges one more publisher into this one.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where A.Failure == P.Failure, A.Output == P.Output {
      Publishers.Merge7(a, b, c, d, e, f, other)
    }
  }

  /// A publisher created by applying the merge function to 7 upstream publishers.
  public struct Merge7<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
    A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output,
    A.Failure == F.Failure, A.Output == F.Output, A.Failure == G.Failure, A.Output == G.Output
  {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
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
    /// Upstream publisher e.
    public let e: E
    /// Upstream publisher f.
    public let f: F
    /// Upstream publisher g.
    public let g: G

    /// Creates a publisher created by applying the merge function to 7 upstream
    /// publishers.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 7)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
          $0.attach(c, as: 2)
          $0.attach(d, as: 3)
          $0.attach(e, as: 4)
          $0.attach(f, as: 5)
          $0.attach(g, as: 6)
        }
    }

    /// Merges one more publisher into this one.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where A.Failure == P.Failure, A.Output == P.Output {
      Publishers.Merge8(a, b, c, d, e, f, g, other)
    }
  }

  /// A publisher created by applying the merge function to 8 upstream publishers.
  public struct Merge8<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
    G: Publisher, H: Publisher
  >: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
    A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output,
    A.Failure == F.Failure, A.Output == F.Output, A.Failure == G.Failure, A.Output == G.Output,
    A.Failure == H.Failure, A.Output == H.Output
  {
    /// The kind of values published by this publisher.
    public typealias Output = A.Output
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
    /// Upstream publisher e.
    public let e: E
    /// Upstream publisher f.
    public let f: F
    /// Upstream publisher g.
    public let g: G
    /// Upstream publisher h.
    public let h: H

    /// Creates a publisher created by applying the merge function to 8 upstream
    /// publishers.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
      self.h = h
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where A.Failure == S.Failure, A.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: 8)
        .start(subscriber) {
          $0.attach(a, as: 0)
          $0.attach(b, as: 1)
          $0.attach(c, as: 2)
          $0.attach(d, as: 3)
          $0.attach(e, as: 4)
          $0.attach(f, as: 5)
          $0.attach(g, as: 6)
          $0.attach(h, as: 7)
        }
    }
  }

  /// A publisher created by applying the merge function to an arbitrary number of
  /// upstream publishers of one type.
  public struct MergeMany<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The array of upstream publishers that this publisher merges together.
    public let publishers: [Upstream]

    /// Creates a publisher created by applying the merge function to an arbitrary number
    /// of upstream publishers.
    public init(_ upstream: Upstream...) { publishers = upstream }

    /// Creates a publisher that merges the publishers of a sequence.
    public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
      publishers = Array(upstream)
    }

    /// Attaches the subscriber; it receives values from every upstream as they come.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      MergeEngine(downstream: subscriber, sides: publishers.count)
        .start(subscriber) { engine in
          for (index, publisher) in publishers.enumerated() {
            engine.attach(publisher, as: index)
          }
        }
    }

    /// Merges one more publisher into this one.
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
      Publishers.MergeMany(publishers + [other])
    }
  }
}

// Combine declares each merge Equatable when all of its upstreams are.
extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable
where
  A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable,
  G: Equatable
{}
extension Publishers.Merge8: Equatable
where
  A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable,
  G: Equatable, H: Equatable
{}
extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
