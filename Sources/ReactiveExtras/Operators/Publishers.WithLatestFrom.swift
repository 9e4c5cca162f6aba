import ReactiveCore

extension Publisher {
  /// Combines each value of this publisher with the latest value of `other`, through
  /// `resultSelector`. As in CombineExt, this publisher is subscribed only once `other` has
  /// sent its first value: a subject's earlier values are missed, and a cold publisher's
  /// values wait for it.
  ///
  ///     let submissions = submitTaps.withLatestFrom(form) { _, form in form }
  ///
  /// The stream finishes when this publisher finishes, and fails when either fails.
  ///
  /// - Parameters:
  ///   - other: The publisher whose latest value joins each value.
  ///   - resultSelector: Combines a value with `other`'s latest.
  /// - Returns: A publisher of combined values.
  public func withLatestFrom<Other: Publisher, Result>(
    _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, second: other, resultSelector: resultSelector)
  }

  /// Replaces each value of this publisher with the latest value of `other`.
  ///
  /// - Parameter other: The publisher whose latest value is sent.
  /// - Returns: A publisher of `other`'s latest value at each value of this one.
  public func withLatestFrom<Other: Publisher>(_ other: Other)
    -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure
  {
    withLatestFrom(other) { $1 }
  }

  /// Combines each value with the latest values of two other publishers.
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value joins each value.
  ///   - other1: The second publisher whose latest value joins each value.
  ///   - resultSelector: Combines a value with the others' latest values.
  /// - Returns: A publisher of combined values.
  public func withLatestFrom<Other: Publisher, Other1: Publisher, Result>(
    _ other: Other, _ other1: Other1,
    resultSelector: @escaping (Output, (Other.Output, Other1.Output)) -> Result
  ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output), Failure>, Result>
  where Other.Failure == Failure, Other1.Failure == Failure {
    withLatestFrom(
      other.combineLatest(other1).eraseToAnyPublisher(), resultSelector: resultSelector)
  }

  /// Replaces each value with the latest values of two other publishers.
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value is sent.
  ///   - other1: The second publisher whose latest value is sent.
  /// - Returns: A publisher of the others' latest values at each value of this one.
  public func withLatestFrom<Other: Publisher, Other1: Publisher>(_ other: Other, _ other1: Other1)
    -> Publishers.WithLatestFrom<
      Self, AnyPublisher<(Other.Output, Other1.Output), Failure>, (Other.Output, Other1.Output)
    > where Other.Failure == Failure, Other1.Failure == Failure
  {
    withLatestFrom(other, other1) { $1 }
  }

  /// Combines each value with the latest values of three other publishers.
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value joins each value.
  ///   - other1: The second publisher whose latest value joins each value.
  ///   - other2: The third publisher whose latest value joins each value.
  ///   - resultSelector: Combines a value with the others' latest values.
  /// - Returns: A publisher of combined values.
  public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher, Result>(
    _ other: Other, _ other1: Other1, _ other2: Other2,
    resultSelector: @escaping (Output, (Other.Output, Other1.Output, Other2.Output)) -> Result
  )
    -> Publishers.WithLatestFrom<
      Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Failure>, Result
    > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
  {
    withLatestFrom(
      other.combineLatest(other1, other2).eraseToAnyPublisher(), resultSelector: resultSelector)
  }

  /// Replaces each value with the latest values of three other publishers.
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value is sent.
  ///   - other1: The second publisher whose latest value is sent.
  ///   - other2: The third publisher whose latest value is sent.
  /// - Returns: A publisher of the others' latest values at each value of this one.
  public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher>(
    _ other: Other, _ other1: Other1, _ other2: Other2
  )
    -> Publishers.WithLatestFrom<
      Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Failure>,
      (Other.Output, Other1.Output, Other2.Output)
    > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
  {
    withLatestFrom(other, other1, other2) { $1 }
  }
}

extension Publishers {
  /// A publisher that combines each value of its upstream with the latest value of a
  /// second publisher.
  public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
  where Upstream.Failure == Other.Failure {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// Combines a value of the upstream with the other publisher's latest value.
    public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output
    /// The publisher whose values are combined.
    public let upstream: Upstream
    /// The publisher whose latest value joins each upstream value.
    public let second: Other
    /// Combines a value with `second`'s latest.
    public let resultSelector: (Upstream.Output, Other.Output) -> Output

    /// Creates the publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher whose values are combined.
    ///   - second: The publisher whose latest value joins each upstream value.
    ///   - resultSelector: Combines a value with `second`'s latest.
    public init(
      upstream: Upstream, second: Other,
      resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
    ) {
      self.upstream = upstream
      self.second = second
      self.resultSelector = resultSelector
    }

    /// Subscribes to `second` (for all its values); the upstream is subscribed once
    /// `second` has sent its first value.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = WithLatestFromSubscription<Upstream, Other, S>(
        upstream: upstream, downstream: subscriber, resultSelector: resultSelector)
      subscriber.receive(subscription: subscription)
      second.subscribe(subscription.otherSide)
    }
  }
}
