extension Publisher {
  /// Collects all received elements, and emits a single array of the collection when the
  /// upstream publisher finishes.
  ///
  ///     let cancellable = (1...3).publisher.collect().sink { print($0) }
  ///     // Prints "[1, 2, 3]"
  ///
  /// - Returns: A publisher that collects all received items and returns them as an array
  ///   upon completion.
  /// - Complexity: O(n) memory for n upstream elements; the upstream is unbounded.
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }

  /// Collects up to the specified number of elements, and then emits a single array of
  /// the collection.
  ///
  ///     let cancellable = (1...5).publisher.collect(2).sink { print($0) }
  ///     // Prints "[1, 2]", "[3, 4]", "[5]"
  ///
  /// - Parameter count: The maximum number of received elements to buffer before
  ///   publishing.
  /// - Returns: A publisher that collects up to the specified number of elements, and then
  ///   publishes them as an array.
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that buffers items.
  public struct Collect<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that collects every upstream element.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber; the array waits for downstream demand.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: CollectSubscription<Upstream.Output, Failure, S>(subscriber))
    }
  }

  /// A publisher that buffers a maximum number of items.
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    /// Creates a publisher that emits arrays of up to `count` elements.
    public init(upstream: Upstream, count: Int) {
      precondition(count > 0, "collect(_:) needs a count greater than zero")
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber; each downstream demand of n asks upstream for n × count.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      var buffer: [Upstream.Output] = []
      let count = count
      upstream.receive(
        subscriber:
          StepOperator<Upstream.Output, Failure, S>(
            "CollectByCount", downstream: subscriber, demandScale: count,
            step: { input in
              buffer.append(input)
              guard buffer.count == count else { return .absorb }
              defer { buffer = [] }
              return .emit(buffer)
            },
            conclude: { completion in
              if case .failure(let error) = completion { return (nil, .failure(error)) }
              defer { buffer = [] }
              return (buffer.isEmpty ? nil : buffer, .finished)
            }))
    }
  }
}

/// The subscription of `collect()`: a reduction into an array that, as in Combine, shows
/// only the number of elements collected so far in its mirror.
private final class CollectSubscription<Element, UpstreamFailure: Error, Downstream: Subscriber>:
  ReducingSubscription<Element, UpstreamFailure, Downstream>, @unchecked Sendable
where Downstream.Input == [Element] {
  /// Creates the subscription for `downstream`, starting from an empty array.
  init(_ downstream: Downstream) {
    super.init("Collect", downstream: downstream, initial: []) { elements, input in
      // Appends in place: `elements` starts empty and is never cleared.
      elements?.append(input)
      return .proceed
    }
  }

  /// Shows the number of elements collected so far.
  override var customMirror: Mirror {
    let children: [Mirror.Child] = [("count", currentResult?.count ?? 0)]
    return Mirror(self, children: children)
  }
}
