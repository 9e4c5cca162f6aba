extension Publisher {
  /// Republishes all elements that match a provided closure.
  ///
  ///     let cancellable = [1, 2, 3, 4].publisher.filter { $0 % 2 == 0 }.sink { print($0) }
  ///     // Prints "2", "4"
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns a Boolean
  ///   value indicating whether to republish the element.
  /// - Returns: A publisher that republishes all elements that satisfy the closure.
  /// - Complexity: O(1) per element; a dropped element is replaced by a request for one
  ///   more, so demand is never lost.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers {
  /// A publisher that republishes all elements that match a provided closure.
  public struct Filter<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes all elements that match a provided closure.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - isIncluded: A closure that indicates whether to republish an element.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Attaches the subscriber through a forwarding subscriber that drops values.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: FilterInner(downstream: subscriber, isIncluded: isIncluded))
    }

    /// Composes a further predicate into this one, so the chain stays one operator.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
      let first = self.isIncluded
      return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }
  }
}

/// The subscriber `filter` attaches upstream; like ``MapInner`` it is generic over the
/// downstream only, to keep chains shallow types.
@usableFromInline
struct FilterInner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let isIncluded: (Downstream.Input) -> Bool
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  init(downstream: Downstream, isIncluded: @escaping (Downstream.Input) -> Bool) {
    self.downstream = downstream
    self.isIncluded = isIncluded
  }

  @inlinable
  func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    isIncluded(input) ? downstream.receive(input) : .max(1)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  var description: String { "Filter" }
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  @usableFromInline
  var playgroundDescription: Any { description }
}
