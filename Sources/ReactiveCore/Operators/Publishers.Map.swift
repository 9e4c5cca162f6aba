extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided closure.
  ///
  ///     let cancellable = [1, 2, 3].publisher.map { $0 * 10 }.sink { print($0) }
  ///     // Prints "10", "20", "30"
  ///
  /// - Parameter transform: A closure that takes one element as its parameter and
  ///   returns a new element.
  /// - Returns: A publisher that uses the provided closure to map elements from the
  ///   upstream publisher to new elements that it then publishes.
  /// - Complexity: O(1) per element; the operator forwards without a lock of its own.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }

  /// Replaces nil elements in the stream with the provided element.
  ///
  /// - Parameter output: The element to use when replacing `nil`.
  /// - Returns: A publisher that replaces `nil` elements from the upstream publisher
  ///   with the provided element.
  @inlinable
  public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
    map { $0 ?? output }
  }
}

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a
  /// provided closure.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) -> Output

    /// Creates a publisher that transforms all elements from the upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - transform: The closure that transforms elements from the upstream publisher.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber through a forwarding subscriber that transforms values.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      upstream.receive(subscriber: MapInner(downstream: subscriber, transform: transform))
    }

    /// Composes a further transform into this one, so the chain stays one operator.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
      let first = self.transform
      return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }
  }
}

/// The subscriber `map` attaches upstream. It is generic over the element types and the
/// downstream only, not over the upstream publisher, so a long operator chain stays a
/// shallow type that the optimiser can still specialise end to end.
@usableFromInline
struct MapInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream
  /// A `var` only so that an operator keeping this subscriber after the end can let go of
  /// the closure (``ClosureReleasingSubscriber``).
  @usableFromInline
  var transform: (Input) -> Downstream.Input
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable
  func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(transform(input)) }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  var description: String { "Map" }
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  @usableFromInline
  var playgroundDescription: Any { description }
}

extension MapInner: ClosureReleasingSubscriber {
  /// Replaces the transform with one that captures nothing: the operator that keeps this
  /// subscriber after the end sends it nothing more.
  mutating func releaseClosures() {
    transform = { _ in preconditionFailure("map: a value after the subscription ended") }
  }
}
